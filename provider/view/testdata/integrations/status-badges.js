// The script of the demo organisation's status-badges integration: renders a badge block.
export default {
  blocks: {
    "status-badge": { render: ({ props }) => ({ type: "text", text: `Status: ${props.service ?? "all services"}` }) },
  },
};
