import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { API_TYPES_COMMAND, API_TYPES_FILE, buildApiDocument, renderApiTypes } from '../../scripts/api-types.js';

it('the web client’s generated API types are those of the server’s current OpenAPI document', async () => {
  const committed = readFileSync(API_TYPES_FILE, 'utf8');
  const fresh = await renderApiTypes();
  // Compared whole; the message names the command, since a diff of thousands of lines says little.
  if (committed !== fresh) expect.fail(`${API_TYPES_FILE} is stale: the server's route schemas changed. Run \`${API_TYPES_COMMAND}\` and commit the file.`);
});

it('names the shapes the web client aliases as components of the document', async () => {
  const doc = (await buildApiDocument()) as { components: { schemas: Record<string, unknown> } };
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Change', 'Blast', 'ChangeReport', 'RegisteredApproval', 'Error']));
});
