import { listenerUrl } from './platform/http/listener-routes.js';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildProbeApp } from './app.js';
import { compose, type Services } from './compose.js';
import { version, type ServeConfig } from './config.js';
import { systemClock, type Clock } from './platform/clock.js';
import { openStore } from './platform/db/open-store.js';
import { createOutboundClient } from './platform/net/outbound.js';
import { createLogger } from './platform/logger.js';
import { createSealer, loadDataKey } from './platform/crypto/sealed.js';
import { join } from 'node:path';
import { openAdminSocket, type AdminSocket } from './platform/admin/admin-socket.js';
import { adminHandler } from './cli/operations.js';
import { startupBlock } from './cli/startup-block.js';
import { scheduleLogSweep } from './domains/evidence/log-retention.js';
import { scheduleAllPulls } from './domains/observed/pull-scheduler.js';

export type RunningServer = {
  url: string;
  /** Empty for a worker (--role worker), which has no pipeline listener. */
  pipelineUrl: string;
  services: Services;
  /** Graceful: stop accepting, finish requests in flight and the job batch in hand, close the store. */
  close(): Promise<void>;
};

function urlOf(app: FastifyInstance, host: string): string {
  const url = listenerUrl(app, host);
  if (url === null) throw new Error('the listener is not listening');
  return url;
}

/** boot: config → database → migrate → compose → listen. */
export async function startServer(cfg: ServeConfig, opts: { clock?: Clock; say?: (line: string) => void } = {}): Promise<RunningServer> {
  const say = opts.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logger = createLogger();
  const db = await openStore(cfg, `changeledger serve (port ${cfg.port}, pipeline ${cfg.pipelinePort})`);
  const sealer = createSealer(loadDataKey(process.env, join(cfg.dataDir, 'secret.key')));
  // Links in e-mails and /status: the public URL, else where the main listener really listens.
  let listening: string | null = null;
  const publicUrl = () => cfg.publicUrl ?? listening ?? `http://localhost:${cfg.port}`;
  const services = compose({ db, clock: opts.clock ?? systemClock, logger, sealer, outbound: { client: createOutboundClient(), allowPrivate: cfg.outboundAllowPrivate }, workerPollMs: cfg.workerPollMs, publicUrl, mail: cfg.mail,
    checkpoints: { name: cfg.checkpointName, pem: process.env.CHANGELEDGER_CHECKPOINT_KEY || null, witnessUrl: cfg.checkpointWitnessUrl },
    holdReleaseDelayMs: cfg.testOnlyHoldReleaseDelayMs ?? undefined, aiBudgetMs: cfg.testOnlyAiBudgetMs ?? undefined });
  let main: FastifyInstance | null = null;
  let pipeline: FastifyInstance | null = null;
  let admin: AdminSocket | null = null;
  try {
    const startCtx = { actor: { kind: 'system' as const, id: null, name: 'changeledger serve (start)' }, source: 'system' as const };
    const first = await services.auth.bootstrap(startCtx, { orgName: cfg.orgName, ownerEmail: cfg.ownerEmail });
    const reissued = first ? null : await services.auth.reissueFirstOwnerLink(startCtx);
    // The hourly catalogue sweep keeps itself going once scheduled; every start makes sure it is.
    await db.transaction((tx) => services.catalogue.scheduleSweep(tx));
    // So does the hourly reminder of post-implementation reviews still missing 3 days after a change's finish.
    await db.transaction((tx) => services.reviews.scheduleReminders(tx));
    // And the automatic rollback sweep, every minute.
    await db.transaction((tx) => services.rollbacks.scheduleSweep(tx));
    // So does the hourly sweep of OTLP log records older than their 9 days.
    await db.transaction((tx) => scheduleLogSweep(tx, services.clock));
    // The hourly signed checkpoint of every ledger whose head moved.
    await db.transaction((tx) => services.checkpoints.scheduleHourly(tx));
    // Each connection's scheduled pull schedules its next; every start makes sure each has one.
    await db.transaction((tx) => scheduleAllPulls(tx, services.clock));
    let pipelineListening: string | null = null;
    const deps = { ...services, secureCookies: cfg.secureCookies, version, trustProxy: cfg.trustProxy, pipelineUrl: () => pipelineListening };
    const storage = db.engine === 'pglite' ? `embedded database in ${db.location}` : `PostgreSQL at ${db.location}`;
    let url: string;
    let pipelineUrl: string | null = null;
    if (cfg.role === 'worker') {
      // A worker serves its probes only: no UI, no API, no pipeline listener.
      main = await buildProbeApp(deps);
      await main.listen({ host: cfg.host, port: cfg.port });
      url = urlOf(main, cfg.host);
      listening = cfg.publicUrl ?? null;
    } else {
      main = await buildApp(deps, 'main');
      pipeline = await buildApp(deps, 'pipeline');
      await main.listen({ host: cfg.host, port: cfg.port });
      await pipeline.listen({ host: cfg.pipelineHost, port: cfg.pipelinePort });
      url = urlOf(main, cfg.host);
      listening = url;
      pipelineUrl = urlOf(pipeline, cfg.pipelineHost);
      pipelineListening = pipelineUrl;
    }
    if (cfg.role !== 'web') services.worker.start();
    // The embedded store is this process's alone: the command line reaches it through the admin socket.
    if (db.engine === 'pglite') {
      try {
        admin = await openAdminSocket(cfg.dataDir, adminHandler(services), (err) => logger.error({ err }, 'admin socket: an operation failed'));
      } catch (err) {
        say(`changeledger: no admin socket, so store commands of the CLI wait until the server stops: ${(err as Error).message}`);
      }
    }
    if (pipelineUrl === null) {
      say(`changeledger ${version} (--role worker): runs the timers and the outbox of ${storage}; health, readiness and metrics on ${url}`);
      if (!cfg.publicUrl) say(`changeledger: warning: no --public-url, so links in the e-mails this worker sends point at ${publicUrl()}`);
    } else {
      const linkOf = (token: string) => `${cfg.publicUrl ?? url}/signin/link#${token}`;
      say(startupBlock({
        version, storage, url, pipelineUrl,
        created: first ? { orgName: first.org.name, ownerEmail: first.owner.email, link: linkOf(first.linkToken) } : null,
        reissued: reissued ? { ownerEmail: reissued.owner.email, link: linkOf(reissued.linkToken) } : null,
      }));
      if (cfg.role === 'web') say('changeledger: --role web: this process runs no timers or outbox jobs; run a --role worker (or all) process on the same database');
    }
    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        await Promise.allSettled([main?.close(), pipeline?.close(), admin?.close()]);
        await services.worker.stop();
        services.mailer.close();
        await db.close();
        logger.flush();
      })());
    return { url, pipelineUrl: pipelineUrl ?? '', services, close };
  } catch (err) {
    await Promise.allSettled([main?.close(), pipeline?.close(), admin?.close()]);
    await db.close();
    throw err;
  }
}
