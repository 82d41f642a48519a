import { createServer, type Server } from 'node:http';

export type FlipExporter = {
  /** host:port, as a Prometheus scrape target. */
  target: string;
  /** Sets the gauge for one label set: `set('up_check', { service: 'checkout' }, 0)` makes the down rule fire. */
  set(metric: string, labels: Record<string, string>, value: number): void;
  /** How many times Prometheus has scraped it: a test waits for a scrape after a flip this way. */
  scrapes(): number;
  close(): Promise<void>;
};

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/**
 * A tiny exporter on loopback: GET /metrics answers the gauges the test set, in Prometheus' text
 * format, so a rule over them fires and resolves when the test says.
 */
export async function startFlipExporter(): Promise<FlipExporter> {
  // metric name -> rendered label set -> value
  const gauges = new Map<string, Map<string, number>>();
  let scrapes = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrapes += 1;
    const lines: string[] = [];
    for (const [metric, series] of gauges) {
      lines.push(`# HELP ${metric} A value the test flips.`, `# TYPE ${metric} gauge`);
      for (const [labels, value] of series) lines.push(`${metric}${labels} ${value}`);
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(`${lines.join('\n')}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    target: `127.0.0.1:${port}`,
    set(metric, labels, value) {
      const rendered = `{${Object.keys(labels).sort().map((k) => `${k}="${escape(labels[k]!)}"`).join(',')}}`;
      if (!gauges.has(metric)) gauges.set(metric, new Map());
      gauges.get(metric)!.set(rendered, value);
    },
    scrapes: () => scrapes,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
