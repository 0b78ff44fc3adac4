"use strict";
const docs = require("pulumi-docsplatform");

const site = new docs.Site("handbook", { organizationId: "demo-org", title: "Partner handbook", visibility: "share-link" });
const link = new docs.ShareLink("partners", { organizationId: "demo-org", siteId: site.id, name: "Partners" });

exports.linkUrl = link.url;
exports.linkName = link.name;
exports.siteUrl = site.urls;
