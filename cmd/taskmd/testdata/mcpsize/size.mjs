// Prints, as one line of JSON, the size in bytes of what an MCP server on
// stdio hands a client before any call: the tools/list result as compact
// JSON, the same without the output schemas, and the instructions.
//
//   node size.mjs COMMAND [ARGS...]   e.g. taskmd mcp --toolsets all, or another
//                                     server's command, run in the current folder
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node size.mjs COMMAND [ARGS...]");
  process.exit(2);
}
const transport = new StdioClientTransport({ command, args, cwd: process.cwd(), stderr: "inherit" });
const client = new Client({ name: "taskmd-mcpsize", version: "0.0.0" });
await client.connect(transport);
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor);
const bytes = (v) => Buffer.byteLength(JSON.stringify(v), "utf8");
const lean = tools.map(({ outputSchema, ...rest }) => rest);
console.log(JSON.stringify({
  args,
  tools: tools.length,
  tools_list_bytes: bytes({ tools }),
  without_output_schemas_bytes: bytes({ tools: lean }),
  instructions_bytes: Buffer.byteLength(client.getInstructions() ?? "", "utf8"),
}));
await client.close();
