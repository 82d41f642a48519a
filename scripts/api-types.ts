import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { compose } from '../src/compose.js';
import { systemClock } from '../src/platform/clock.js';
import type { Database } from '../src/platform/db/database.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';

/** Where the web client's generated types live, relative to the repository. */
export const API_TYPES_FILE = 'web/src/api/schema.d.ts';
export const API_TYPES_COMMAND = 'npm run generate:types';

const HEADER = `// Generated from the server's OpenAPI document by \`${API_TYPES_COMMAND}\`: do not edit by hand.
// Change a route's schema instead; test/http/api-types.test.ts fails while this file is stale.
`;

/**
 * The OpenAPI document the main listener serves at /api/openapi.json, built in-process without
 * listening. Registering routes reads nothing, so the app gets a database that refuses every query.
 */
export async function buildApiDocument(): Promise<Record<string, unknown>> {
  const refuse = (): never => {
    throw new Error('the API document is built without a database');
  };
  const db: Database = { engine: 'pglite', location: '(none)', query: refuse, exec: refuse, transaction: refuse, close: async () => {} };
  const logger = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const services = compose({ db, clock: systemClock, logger, sealer: createSealer(randomBytes(32)), outbound: { client: createOutboundClient({}), allowPrivate: false } });
  const app = await buildApp({ ...services, secureCookies: false, version: 'generated', webDir: null }, 'main');
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    services.mailer.close();
  }
}

/** The TypeScript text of the web client's API types, as `npm run generate:types` writes it. */
export async function renderApiTypes(): Promise<string> {
  const document = await buildApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}
