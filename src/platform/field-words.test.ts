import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { fieldLabel, fieldSentence, filePlace, nameToWords, schemaProblem } from './field-words.js';

const Body = Type.Object({
  email: Type.String({ title: 'E-mail' }),
  recipients: Type.Array(Type.String({ title: 'Recipient' }), { title: 'Report recipients' }),
  components: Type.Array(Type.Object({ key: Type.String() }), { title: 'Components' }),
  scopes: Type.Array(Type.String()),
  silenceInfra: Type.Union([Type.String({ title: 'Silence infrastructure' }), Type.Null()]),
  ticketing: Type.Object({ secret: Type.String({ title: 'Signing secret' }) }),
  pipeline: Type.Object({ runUrl: Type.String() }, { title: 'Pipeline' }),
});

describe('the label of a field', () => {
  it.each([
    ['email', 'E-mail', 'a title on the property'],
    ['recipients', 'Report recipients', 'a title on the list'],
    ['recipients.0', 'Recipient 1', 'a title on the items, counted from 1'],
    ['components.1.key', 'Component 2 › Key', 'an item without a title: its list in the singular, then the field'],
    ['scopes.2', 'Scope 3', 'a list without titles'],
    ['silenceInfra', 'Silence infrastructure', 'a title inside a nullable union'],
    ['ticketing.secret', 'Signing secret', 'an untitled object only groups its fields'],
    ['pipeline.runUrl', 'Pipeline › Run URL', 'a titled object names itself first'],
    ['maxDurationMinutes', 'Max duration minutes', 'no schema: the name in words'],
    ['entries.0.input', 'Entry 1 › Input', 'no schema: a plural in -ies'],
  ])('%s → %s (%s)', (field, label) => {
    expect(fieldLabel(field, Body)).toBe(label);
  });

  it('turns names into words, with acronyms as written', () => {
    expect(['callbackUrl', 'criticalUserIds', 'apiToken', 'email', 'sdkKey'].map((n) => nameToWords(n))).toEqual(['Callback URL', 'Critical user IDs', 'API token', 'E-mail', 'SDK key']);
  });
});

describe('a sentence about a field', () => {
  it('shows a list item\'s value, never another field\'s (a password is never repeated)', () => {
    expect(fieldSentence({ field: 'recipients.0', problem: 'is not an e-mail address', value: 'bob@' }, Body)).toBe('Recipient 1 (bob@) is not an e-mail address');
    expect(fieldSentence({ field: 'password', problem: 'must be at least 12 characters', value: 'hunter2' })).toBe('Password must be at least 12 characters');
    expect(fieldSentence({ field: 'recipients.0', problem: 'is not an e-mail address', value: 'x'.repeat(61) }, Body)).toBe('Recipient 1 is not an e-mail address');
  });

  it('joins a problem that starts with a colon without a space', () => {
    expect(fieldSentence({ field: 'ticketing.url', problem: ': a loopback address, where nothing is ever sent' })).toBe('URL: a loopback address, where nothing is ever sent');
  });

  it('names a place in an imported file by its document, then the file\'s own keys', () => {
    expect([filePlace('documents.0'), filePlace('documents.2.metadata.name'), filePlace('items.4.metadata.name')]).toEqual(['Document 1', 'Document 3: metadata.name', 'Item 5: metadata.name']);
  });
});

describe('the problem a schema keyword reports', () => {
  it.each([
    ['minLength', { limit: 1 }, 'is required'],
    ['minLength', { limit: 3 }, 'must be at least 3 characters'],
    ['maxLength', { limit: 200 }, 'must be at most 200 characters'],
    ['minimum', { limit: 1 }, 'must be at least 1'],
    ['maximum', { limit: 25 }, 'must be at most 25'],
    ['minItems', { limit: 1 }, 'must have at least 1 entry'],
    ['maxItems', { limit: 20 }, 'must have at most 20 entries'],
    ['format', { format: 'email' }, 'is not an e-mail address'],
    ['type', { type: 'integer' }, 'must be a whole number'],
    ['enum', { allowedValues: ['a', 'b'] }, 'must be one of: a, b'],
    ['required', { missingProperty: 'title' }, 'is required'],
  ])('%s %j → %s', (keyword, params, words) => {
    expect(schemaProblem(keyword, params, 'must NOT have fewer than 1 characters')).toBe(words);
  });
});
