"use strict";
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docsplatform");

// `count` redirects to the site's one site space; the first `edited` of them made permanent.
const config = new pulumi.Config();
const count = config.requireNumber("count");
const edited = config.getNumber("edited") ?? 0;
const siteSpaceId = config.require("siteSpaceId");
const redirects = [];
for (let i = 0; i < count; i++) {
  redirects.push({ source: `/old/${i}`, permanent: i < edited, destination: { kind: "site-space", siteSpaceId } });
}
const set = new docs.SiteRedirects("redirects", { organizationId: "demo-org", siteId: config.require("siteId"), redirects });

exports.count = set.redirects.apply((r) => r.length);
