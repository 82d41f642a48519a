/**
 * Renders the Argo CD notification template of docs/observed.md the way Argo CD's notifications
 * controller does (Go text/template with Sprig), for the few constructs that template uses:
 * `{{toJson X}}` where X is a field path (`.app.metadata.name`, `.context.argocdUrl`), `(dig "k" …
 * default .app)`, `(dict)` or `(list)`. Anything else throws, so a template edited beyond what
 * this renderer knows fails its test instead of passing untested.
 *
 * Go semantics kept: a missing map key is "no value" (toJson → null), but walking on from a
 * missing one is an error (the controller would fail the notification); `dig` answers its default
 * for any missing step (Sprig's dig).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

type Vars = { app: unknown; context: Record<string, string> };
type Node = { t: 'path'; path: string[] } | { t: 'str'; v: string } | { t: 'call'; fn: string; args: Node[] };

function tokens(src: string): string[] {
  const out: string[] = [];
  const re = /\s*(\(|\)|"(?:[^"\\]|\\.)*"|[.A-Za-z_][\w.-]*)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(src)) !== null) {
    out.push(m[1]!);
    at = re.lastIndex;
  }
  if (src.slice(at).trim() !== '') throw new Error(`the test renderer cannot read "${src.slice(at)}"`);
  return out;
}

function parseExpr(ts: string[], i: number): [Node, number] {
  const tok = ts[i];
  if (tok === undefined) throw new Error('unexpected end of template action');
  if (tok === '(') {
    const fn = ts[i + 1]!;
    const args: Node[] = [];
    let j = i + 2;
    while (ts[j] !== ')') {
      if (j >= ts.length) throw new Error('unclosed (');
      const [n, next] = parseExpr(ts, j);
      args.push(n);
      j = next;
    }
    return [{ t: 'call', fn, args }, j + 1];
  }
  if (tok.startsWith('"')) return [{ t: 'str', v: JSON.parse(tok) as string }, i + 1];
  if (tok.startsWith('.')) return [{ t: 'path', path: tok.slice(1).split('.') }, i + 1];
  throw new Error(`the test renderer does not know "${tok}"`);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function evaluate(n: Node, vars: Vars): unknown {
  if (n.t === 'str') return n.v;
  if (n.t === 'path') {
    let cur: unknown = vars;
    n.path.forEach((k, i) => {
      if (!isMap(cur)) throw new Error(`nil pointer evaluating interface {}.${k} (at .${n.path.slice(0, i + 1).join('.')})`);
      cur = cur[k];
    });
    return cur;
  }
  const args = n.args.map((a) => evaluate(a, vars));
  if (n.fn === 'dict' && args.length === 0) return {};
  if (n.fn === 'list' && args.length === 0) return [];
  if (n.fn === 'dig' && args.length >= 3) {
    const dict = args.at(-1);
    const fallback = args.at(-2);
    let cur: unknown = dict;
    for (const k of args.slice(0, -2)) {
      if (!isMap(cur) || !(String(k) in cur)) return fallback;
      cur = cur[String(k)];
    }
    return cur;
  }
  throw new Error(`the test renderer does not know the function ${n.fn}`);
}

/** The body Argo CD would send for one Application. */
export function renderArgoBody(template: string, vars: Vars): string {
  return template.replace(/\{\{(.*?)\}\}/gs, (_, inner: string) => {
    const ts = tokens(inner.trim());
    if (ts[0] !== 'toJson') throw new Error(`the test renderer only renders toJson actions, not "${inner.trim()}"`);
    const [node, end] = parseExpr(ts, 1);
    if (end !== ts.length) throw new Error(`more than one argument in "${inner.trim()}"`);
    return JSON.stringify(evaluate(node, vars) ?? null);
  });
}

export type NotificationsConfig = {
  context: Record<string, string>;
  triggers: Record<string, Array<{ when: string; oncePer?: string; send: string[] }>>;
  /** template name → the webhook body of its `changeledger` service */
  bodies: Record<string, string>;
  service: { url: string; headers: Array<{ name: string; value: string }> };
  subscriptions: Array<{ recipients: string[]; triggers: string[] }>;
};

/** The ConfigMap pasted in docs/observed.md's "Argo CD" section, read as Argo CD reads it. */
export function docsNotificationsConfig(docsPath: string): NotificationsConfig {
  const doc = readFileSync(docsPath, 'utf8');
  const section = doc.slice(doc.indexOf('\n## Argo CD'), doc.indexOf('\n## ', doc.indexOf('\n## Argo CD') + 5));
  const yamlBlock = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!yamlBlock) throw new Error('docs/observed.md: no yaml block in the Argo CD section');
  const cm = parseAllDocuments(yamlBlock).map((d) => d.toJS() as Record<string, unknown>).find((d) => d.kind === 'ConfigMap');
  const data = (cm?.data ?? {}) as Record<string, string>;
  const cfg: NotificationsConfig = {
    context: parseYaml(data.context ?? '{}') as Record<string, string>,
    triggers: {}, bodies: {},
    service: parseYaml(data['service.webhook.changeledger'] ?? '{}') as NotificationsConfig['service'],
    subscriptions: parseYaml(data.subscriptions ?? '[]') as NotificationsConfig['subscriptions'],
  };
  for (const [k, v] of Object.entries(data)) {
    if (k.startsWith('trigger.')) cfg.triggers[k.slice('trigger.'.length)] = parseYaml(v) as NotificationsConfig['triggers'][string];
    if (k.startsWith('template.')) {
      const t = parseYaml(v) as { webhook?: { changeledger?: { method?: string; body?: string } } };
      const hook = t.webhook?.changeledger;
      if (hook?.method !== 'POST' || !hook.body) throw new Error(`${k}: not a POST to the changeledger webhook`);
      cfg.bodies[k.slice('template.'.length)] = hook.body;
    }
  }
  return cfg;
}
