/**
 * The secret values the handbook example takes from the environment (its MCP server's Authorization
 * header, its GitHub issues connection's token), as a user's shell or CI would export them. Every run
 * of a program through the harness, and every CLI project, has them in its environment: the handbook
 * is the program most tests run, and a secret source that is not set stops it before any call.
 * Distinctive values, so that a secret scan finds any copy of them.
 */
export const HANDBOOK_SECRET_ENV: Readonly<Record<string, string>> = {
  HANDBOOK_MCP_TOKEN: "Bearer mcp-7f2c91e4d5a8b3",
  HANDBOOK_GITHUB_TOKEN: "ghp-handbook-5d1e8a2f9c40",
};
