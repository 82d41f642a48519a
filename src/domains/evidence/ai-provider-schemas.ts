import { Type } from 'typebox';

/** Settings → AI provider, over HTTP: what comes in and what goes out (the key only ever comes in). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Kind = Type.Enum(['openai', 'anthropic'], {
  title: 'Kind', description: 'openai: an OpenAI-compatible chat-completions endpoint; anthropic: the Anthropic Messages API',
});

export const AiProviderInput = Type.Object({
  kind: Kind,
  url: Type.Optional(Nullable(Type.String({
    minLength: 1, maxLength: 2000, title: 'URL',
    description: 'openai: the base URL (https://api.openai.com/v1) or the …/chat/completions endpoint; anthropic: https://api.anthropic.com or the …/v1/messages endpoint. Left out: the provider’s own',
  }))),
  model: Type.String({ minLength: 1, maxLength: 200, title: 'Model', description: 'The model’s name as the provider knows it' }),
  key: Type.Optional(Nullable(Type.String({
    minLength: 1, maxLength: 4000, title: 'Key', description: 'The API key, kept sealed. Left out: the stored key is kept; null: removed (Anthropic needs one)',
  }))),
}, { additionalProperties: false });

export const AiProvider = Type.Object({
  kind: Kind, url: Type.String(), endpoint: Type.String({ description: 'Where requests go' }), model: Type.String(),
  hasKey: Type.Boolean({ description: 'A key is kept (never answered)' }), createdAt: Type.String(), updatedAt: Type.String(),
}, { $id: 'AiProvider' });

export const AiProviderAnswer = Type.Object({ provider: Nullable(AiProvider) });

export const AiProviderTest = Type.Object({
  ok: Type.Boolean(), model: Nullable(Type.String({ description: 'The model that answered' })), durationMs: Nullable(Type.Integer()),
  problem: Nullable(Type.String({ description: 'Why it did not answer, in words' })),
}, { $id: 'AiProviderTest' });
