// The integration's script: the platform fetches it and runs it on its events.
export default {
  async fetch(request, env) {
    const badge = { label: "status", message: "operational", color: "green" };
    return new Response(JSON.stringify(badge), {
      headers: { "content-type": "application/json", "x-api-key-set": String(Boolean(env.secrets?.STATUS_API_KEY)) },
    });
  },
};
