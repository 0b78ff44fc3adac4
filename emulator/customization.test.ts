/** Site customization: defaults of a new site, the whole-object PUT, limits, and site-space overrides (merge, clear, delete). */
import { describe, expect, it } from "vitest";
import { shareEmulator } from "../test/support/emulatorSuite";
import { defaultCustomization } from "./routes/customization";

const emu = shareEmulator();
const admin = emu.caller();
const reader = emu.caller("reader-token");
const S = "/v1/orgs/demo-org/sites";

async function site(): Promise<{ base: string; siteSpace: string }> {
  const s = (await admin("POST", S, { title: "Look", spaces: ["space-guides"] })).body;
  const base = `${S}/${s.id}`;
  const ss = (await admin("GET", `${base}/site-spaces`)).body.items[0].id;
  return { base, siteSpace: ss };
}

describe("site customization", () => {
  it("a new site has the complete default settings, without updatedAt; members read them", async () => {
    const { base } = await site();
    const r = await reader("GET", `${base}/customization`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(defaultCustomization());
    expect(r.body).not.toHaveProperty("updatedAt");
    expect(r.body.insights.trackingCookie).toBe(true);
  });

  it("PUT replaces the whole object; a GET sent back with its updatedAt is accepted; optional members left out are unset", async () => {
    const { base } = await site();
    const settings = (await admin("GET", `${base}/customization`)).body;
    settings.styling.primaryColor = { light: "#ff0000", dark: "#f00" };
    settings.header.links = [{ title: "Status", to: { kind: "url", url: "https://status.example.com" }, links: [] }];
    settings.announcement = { enabled: true, message: "Hello", style: "info" };
    settings.title = "Branded";
    let r = await admin("PUT", `${base}/customization`, settings);
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.updatedAt)).not.toBeNaN();
    expect(r.body.styling.primaryColor).toEqual({ light: "#ff0000", dark: "#f00" });
    expect(r.body.header.links).toHaveLength(1);
    const again = r.body;
    delete again.announcement;
    delete again.title;
    r = await admin("PUT", `${base}/customization`, again);
    expect(r.body).not.toHaveProperty("announcement");
    expect(r.body).not.toHaveProperty("title");
    expect((await admin("GET", `${base}/customization`)).body).toEqual(r.body);
  });

  it("keeps the assistant page action in step with the AI mode", async () => {
    const { base } = await site();
    const settings = defaultCustomization() as any;
    settings.ai = { mode: "assistant" };
    settings.pageActions = { items: ["markdown", "pdf"] };
    expect((await admin("PUT", `${base}/customization`, settings)).body.pageActions.items).toEqual(["assistant", "markdown", "pdf"]);
    settings.ai = { mode: "none" };
    settings.pageActions = { items: ["markdown", "assistant"] };
    expect((await admin("PUT", `${base}/customization`, settings)).body.pageActions.items).toEqual(["markdown"]);
    settings.pageActions = { items: [] };
    expect((await admin("PUT", `${base}/customization`, settings)).body.pageActions.items).toEqual([]);
  });

  it("refuses a PUT missing a required member, bad colours, URLs, expressions, localized values and limits, and a reader", async () => {
    const { base } = await site();
    const put = (edit: (s: any) => void) => {
      const s = defaultCustomization() as any;
      edit(s);
      return admin("PUT", `${base}/customization`, s);
    };
    const refused = async (edit: (s: any) => void, message: RegExp) => {
      const r = await put(edit);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await refused((s) => delete s.styling, /styling/);
    await refused((s) => delete s.styling.theme, /theme/);
    await refused((s) => (s.styling.primaryColor = { light: "red", dark: "#000" }), /primaryColor/);
    await refused((s) => (s.styling.primaryColor = { light: "#000" }), /primaryColor/);
    await refused((s) => (s.header.logo = { light: "not a url", dark: "https://x.example.com/l.png" }), /logo/);
    await refused((s) => (s.header.links = [{ title: "X", to: null, links: [], condition: "c".repeat(1025) }]), /condition/);
    await refused((s) => (s.localizedTitle = { fr: "t".repeat(129) }), /localizedTitle/);
    await refused((s) => (s.localizedTitle = { klingon: "Qapla" }), /localizedTitle/);
    await refused((s) => (s.ai.suggestions = ["a", "bbb"]), /suggestions/);
    await refused((s) => (s.ai.suggestions = ["aaa", "bbb", "ccc", "ddd", "eee", "fff"]), /suggestions/);
    await refused((s) => (s.footer.copyright = "c".repeat(513)), /copyright/);
    await refused((s) => (s.favicon = { emoji: "🙂", icon: { light: "https://x.example.com/a", dark: "https://x.example.com/b" } }), /favicon/);
    await refused((s) => (s.socialAccounts = Array.from({ length: 11 }, () => ({ platform: "github", handle: "x", display: { footer: true, header: false } }))), /socialAccounts/);
    await refused((s) => (s.styling.unknown = 1), /styling|additional/);
    await refused((s) => (s.title = "x"), /title/);
    expect((await reader("PUT", `${base}/customization`, defaultCustomization())).status).toBe(403);
  });
});

describe("site-space customization overrides", () => {
  it("GET is the site's settings with overrides in place; PATCH merges member by member; null clears one", async () => {
    const { base, siteSpace } = await site();
    const url = `${base}/site-spaces/${siteSpace}/customization`;
    expect((await admin("GET", url)).body).toEqual({ ...defaultCustomization(), hasOverrides: false });
    let r = await admin("PATCH", url, { title: "Version 2", styling: { primaryColor: { light: "#00ff00", dark: "#00ff00" } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Version 2", hasOverrides: true, styling: { primaryColor: { light: "#00ff00" }, theme: "clean" } });
    r = await admin("PATCH", url, { styling: { theme: "bold", sidebar: { list: "pill" } } });
    expect(r.body.styling).toMatchObject({ theme: "bold", primaryColor: { light: "#00ff00" }, sidebar: { background: "default", list: "pill" } });
    // The site's own change shows through where no override is set.
    const settings = (await admin("GET", `${base}/customization`)).body;
    settings.styling.corners = "straight";
    settings.styling.theme = "muted";
    await admin("PUT", `${base}/customization`, settings);
    r = await admin("GET", url);
    expect(r.body.styling).toMatchObject({ corners: "straight", theme: "bold" });
    r = await admin("PATCH", url, { title: null, styling: { theme: null, primaryColor: null, sidebar: { list: null } } });
    expect(r.body).toMatchObject({ hasOverrides: false, styling: { theme: "muted", primaryColor: defaultCustomization().styling && { light: "#346DDB" } } });
    expect(r.body).not.toHaveProperty("title");
  });

  it("DELETE removes every override (205), then 204 when there are none; members not overridable are refused", async () => {
    const { base, siteSpace } = await site();
    const url = `${base}/site-spaces/${siteSpace}/customization`;
    await admin("PATCH", url, { favicon: { emoji: "🚀" }, header: { links: [] }, announcement: { enabled: true, message: "v2", style: "warning" } });
    expect((await admin("DELETE", url)).status).toBe(205);
    expect((await admin("GET", url)).body.hasOverrides).toBe(false);
    expect((await admin("DELETE", url)).status).toBe(204);
    expect((await admin("PATCH", url, { ai: { mode: "none" } })).status).toBe(400);
    expect((await admin("PATCH", url, { styling: { font: "Inter" } })).status).toBe(400);
    expect((await admin("PATCH", url, { announcement: null })).status).toBe(400);
    expect((await admin("PATCH", `${base}/site-spaces/nope/customization`, { title: "xx" })).status).toBe(404);
    expect((await reader("PATCH", url, { title: "xx" })).status).toBe(403);
  });
});
