import { describe, expect, it } from "vitest";
import { ApiClient, checkBaseUrl } from "./index";

describe("checkBaseUrl", () => {
  it.each([
    "https://api.example.com",
    "https://api.example.com/prefix/",
    "http://127.0.0.1:4010",
    "http://127.45.3.9",
    "http://localhost:8080",
    "http://LOCALHOST",
    "http://[::1]:4010",
  ])("accepts %s", (url) => {
    expect(checkBaseUrl(url)).toBeInstanceOf(URL);
  });

  it.each([
    ["http://api.example.com", /must use https:\/\/ \(http:\/\/ is allowed only for loopback/],
    ["http://128.0.0.1", /allowed only for loopback/],
    ["http://10.0.0.1:4010", /allowed only for loopback/],
    ["http://localhost.example.com", /allowed only for loopback/],
    ["http://[::2]", /allowed only for loopback/],
    ["ftp://127.0.0.1", /must use https:\/\/ \(got ftp:\/\/\)/],
    ["127.0.0.1:4010", /not a valid absolute URL \(expected https:\/\/host/],
    ["not a url", /not a valid absolute URL/],
    ["https://api.example.com/?x=1", /must not have a query or fragment/],
  ])("refuses %s", (url, message) => {
    expect(() => checkBaseUrl(url)).toThrow(message);
  });

  it("refuses credentials in the URL without repeating them", () => {
    let err: unknown;
    try {
      checkBaseUrl("https://user:s3cretpw@api.example.com");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/must not contain credentials/);
    expect((err as Error).message).not.toContain("s3cretpw");
  });

  it("stops an ApiClient before any request is possible", () => {
    expect(() => new ApiClient({ baseUrl: "http://docs.example.com", token: "t" })).toThrow(/allowed only for loopback/);
  });

  it("refuses a missing token; the message names no provider setting (the provider's own message does)", () => {
    expect(() => new ApiClient({ baseUrl: "https://docs.example.com", token: "" })).toThrow(/API token is missing/);
    expect(() => new ApiClient({ baseUrl: "https://docs.example.com", token: "" })).not.toThrow(/docsplatform:/);
  });
});
