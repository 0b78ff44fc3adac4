"use strict";
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docsplatform");

const config = new pulumi.Config();
const section = new docs.SiteSection("guides", {
  organizationId: "demo-org",
  siteId: config.require("siteId"),
  spaceId: "space-guides",
  title: "Guides",
  path: "guides",
  description: "How-to guides",
});

exports.sectionId = section.id;
exports.sectionPath = section.path;
