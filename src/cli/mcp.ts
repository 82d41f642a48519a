import type { Command } from 'commander';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connect, DEFAULT_SERVER } from './api-client.js';
import { EXIT, type Io } from './common.js';

/**
 * `changeledger mcp`: an MCP server on stdio for Claude Desktop, VS Code and other local clients.
 * It holds no data of its own: every message goes to the running server's /mcp (pipeline listener)
 * with the token from $CHANGELEDGER_TOKEN, so the tools, their scopes and their audit are the HTTP
 * transport's, and the embedded store stays with the one process that holds it.
 */
export function mcpCommands(program: Command, io: Io, done: (code: number) => void): void {
  program
    .command('mcp')
    .description('serve MCP on stdin/stdout, relayed to a running server\'s /mcp: what_changed, change_status, blast_radius, flag_history, audit_query, register_change, and reports as resources')
    .option('--server <url>', `the server's pipeline listener (default: $CHANGELEDGER_URL or ${DEFAULT_SERVER})`)
    .addHelpText('after', '\nThe token comes from $CHANGELEDGER_TOKEN (never an argument: arguments show in ps); its scopes decide which tools the client sees.\nstdout carries the protocol only; messages for people go to stderr.')
    .action(async (o: { server?: string }) => {
      const client = connect({ server: o.server });
      done(await relay(`${client.baseUrl}/mcp`, client.authHeaders(), io));
    });
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } => 'method' in m && 'id' in m;

/** Relays stdio ↔ Streamable HTTP until stdin closes; a message the server cannot take is answered with a JSON-RPC error. */
async function relay(url: string, headers: Record<string, string>, io: Io): Promise<number> {
  // The SDK is loaded here, not with the CLI: every other command starts without parsing it.
  const [{ StreamableHTTPClientTransport }, { StdioServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const upstream = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => void local.close());
  });
  upstream.onmessage = (m) => void local.send(m);
  upstream.onerror = (err) => io.err(`changeledger mcp: ${err.message}\n`);
  local.onmessage = (m) => {
    upstream.send(m).catch((err: Error) => {
      io.err(`changeledger mcp: ${url}: ${err.message}\n`);
      if (isRequest(m)) void local.send({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: `changeledger at ${url} refused or did not answer: ${err.message}` } });
    });
  };
  await upstream.start();
  await local.start();
  await closed;
  await upstream.close();
  return EXIT.ok;
}
