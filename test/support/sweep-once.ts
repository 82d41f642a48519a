/**
 * One tick of the rollback sweep in a process of its own, on the PostgreSQL at DATABASE_URL: the
 * second server of a two-process test. Waits until START_AT (epoch ms) so two of them sweep at
 * the same moment, then prints the decisions it made as JSON.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { compose } from '../../src/compose.js';
import { systemClock } from '../../src/platform/clock.js';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { createOutboundClient } from '../../src/platform/net/outbound.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names the PostgreSQL database to sweep');
const db = await openDatabase({ engine: 'postgres', url });
try {
  const services = compose({ db, clock: systemClock, logger: pino({ level: 'silent' }), sealer: createSealer(randomBytes(32)), outbound: { client: createOutboundClient(), allowPrivate: false } });
  const startAt = Number(process.env.START_AT ?? 0);
  if (startAt > Date.now()) await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
  const decided = await db.transaction((tx) => services.rollbacks.sweep(tx));
  process.stdout.write(`${JSON.stringify(decided)}\n`);
} finally {
  await db.close();
}
