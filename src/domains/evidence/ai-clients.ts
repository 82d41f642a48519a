import { OutboundFailed, OutboundRefused, type OutboundClient, type OutboundResponse } from '../../platform/net/outbound.js';
import { AI_MAX_ANSWER_TOKENS, ANTHROPIC_VERSION } from './ai-limits.js';
import type { AiPrompt } from './ai-prompt.js';

/**
 * The two provider APIs, spoken through the one outbound client (SSRF guard, capped answer) with
 * the assessment's budget as the request's deadline. Each failure becomes an AiCallError whose
 * message a person reads on the change page: "the provider answered 500: …", "no answer within
 * 120 s", the guard's refusal. The key never appears in one.
 *
 * Shapes, as documented:
 * - OpenAI chat completions: POST {base}/chat/completions, `Authorization: Bearer <key>`, body
 *   {model, messages: [{role, content}], response_format: {type: 'json_object'}}; the answer is
 *   {id, object: 'chat.completion', model, choices: [{index, message: {role, content, refusal?},
 *   finish_reason}], usage}; errors {error: {message, type, param, code}}.
 *   https://platform.openai.com/docs/api-reference/chat/create (OpenAI's OpenAPI document,
 *   CreateChatCompletionResponse). Self-hosted servers (vLLM, Ollama, LM Studio) speak the same.
 * - Anthropic Messages: POST {base}/v1/messages, `x-api-key`, `anthropic-version: 2023-06-01`,
 *   body {model, max_tokens, system, messages: [{role: 'user', content}]}; the answer is
 *   {id, type: 'message', role: 'assistant', content: [{type: 'text', text}], model, stop_reason,
 *   usage}; errors {type: 'error', error: {type, message}}.
 *   https://docs.anthropic.com/en/api/messages and https://docs.anthropic.com/en/api/errors
 */

export type AiProviderKind = 'openai' | 'anthropic';
export type AiTarget = { kind: AiProviderKind; url: string; model: string; key: string | null; allowPrivate: boolean };
export type AiReply = { text: string; model: string; durationMs: number };

export class AiCallError extends Error {
  constructor(message: string, readonly kind: 'refused' | 'unreachable' | 'timeout' | 'answered') {
    super(message);
  }
}

const MAX_REASON = 300;

/** Where requests go: the URL as given when it names the endpoint, else the endpoint under it. */
export function endpointUrl(kind: AiProviderKind, url: string): string {
  const base = url.replace(/\/+$/, '');
  if (kind === 'openai') return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
  if (/\/messages$/.test(base)) return base;
  return /\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`;
}

function hide(text: string, key: string | null): string {
  return key && key.length >= 4 ? text.split(key).join('••••') : text;
}

/** Both APIs word errors as {error: {message}}; a proxy in front may answer plain text or HTML. */
export function answeredReason(status: number, body: string, key: string | null): string {
  let said = body.trim();
  try {
    const parsed = JSON.parse(said) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'object' ? parsed.error?.message : parsed.error ?? parsed.message;
    if (typeof m === 'string') said = m;
  } catch {
    if (/^<(!doctype|html)/i.test(said)) said = '';
  }
  said = hide(said.replace(/\s+/g, ' ').trim(), key);
  if (said.length > MAX_REASON) said = `${said.slice(0, MAX_REASON)}…`;
  return said ? `the provider answered ${status}: ${said}` : `the provider answered ${status}`;
}

function failureOf(err: unknown, budgetMs: number): AiCallError {
  if (err instanceof AiCallError) return err;
  if (err instanceof OutboundRefused) return new AiCallError(err.message, 'refused');
  if (err instanceof OutboundFailed) {
    if (err.kind === 'timeout') return new AiCallError(`no answer within ${Math.round(budgetMs / 100) / 10} s`, 'timeout');
    if (/ECONNREFUSED/.test(err.message)) return new AiCallError('connection refused', 'unreachable');
    return new AiCallError(err.message, 'unreachable');
  }
  return new AiCallError(err instanceof Error ? err.message : String(err), 'unreachable');
}

function requestFor(t: AiTarget, prompt: AiPrompt, jsonMode = true): { headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (t.kind === 'openai') {
    // A self-hosted endpoint may need no key at all.
    if (t.key) headers.authorization = `Bearer ${t.key}`;
    return {
      headers,
      body: {
        model: t.model,
        messages: [{ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user }],
        ...(jsonMode ? { response_format: { type: 'json_object' } } : {}),
      },
    };
  }
  if (t.key) headers['x-api-key'] = t.key;
  headers['anthropic-version'] = ANTHROPIC_VERSION;
  return {
    headers,
    body: { model: t.model, max_tokens: AI_MAX_ANSWER_TOKENS, system: prompt.system, messages: [{ role: 'user', content: prompt.user }] },
  };
}

type OpenAiCompletion = { model?: string; choices?: Array<{ message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }> };
type AnthropicMessage = { model?: string; content?: Array<{ type?: string; text?: string }>; stop_reason?: string };

function textOf(t: AiTarget, res: OutboundResponse): { text: string; model: string } {
  let b: unknown;
  try {
    b = JSON.parse(res.body);
  } catch {
    throw new AiCallError(`the provider answered ${res.status} with something that is not JSON`, 'answered');
  }
  if (t.kind === 'openai') {
    const c = (b as OpenAiCompletion).choices?.[0];
    if (!c?.message) throw new AiCallError('the provider answered without a choice', 'answered');
    if (c.message.refusal) throw new AiCallError(`the model refused: ${c.message.refusal.slice(0, MAX_REASON)}`, 'answered');
    if (c.finish_reason === 'length') throw new AiCallError('the model’s answer was cut off (finish_reason length)', 'answered');
    if (typeof c.message.content !== 'string') throw new AiCallError('the provider answered without text', 'answered');
    return { text: c.message.content, model: (b as OpenAiCompletion).model ?? t.model };
  }
  const m = b as AnthropicMessage;
  if (m.stop_reason === 'max_tokens') throw new AiCallError('the model’s answer was cut off (stop_reason max_tokens)', 'answered');
  const text = (m.content ?? []).filter((x) => x.type === 'text' && typeof x.text === 'string').map((x) => x.text).join('');
  if (!text) throw new AiCallError('the provider answered without text', 'answered');
  return { text, model: m.model ?? t.model };
}

/**
 * Some OpenAI-compatible servers refuse `response_format: {type: 'json_object'}` with a 400 that
 * names it (LM Studio wants json_schema, older ones know none): asked again without it, the prompt
 * still asks for JSON and the answer is checked all the same.
 */
const refusesJsonMode = (t: AiTarget, res: OutboundResponse) => t.kind === 'openai' && res.status === 400 && /response_format/.test(res.body);

/** One ask: the prompt to the provider, its text back, within timeoutMs (a second ask included). Throws AiCallError. */
export async function askProvider(outbound: OutboundClient, t: AiTarget, prompt: AiPrompt, timeoutMs: number): Promise<AiReply> {
  const started = performance.now();
  const send = async (jsonMode: boolean) => {
    const { headers, body } = requestFor(t, prompt, jsonMode);
    const left = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
    try {
      return await outbound.request({ method: 'POST', url: endpointUrl(t.kind, t.url), headers, body: JSON.stringify(body), allowPrivate: t.allowPrivate, timeoutMs: left });
    } catch (err) {
      throw failureOf(err, timeoutMs);
    }
  };
  let res = await send(true);
  if (refusesJsonMode(t, res)) res = await send(false);
  if (res.status < 200 || res.status >= 300) throw new AiCallError(answeredReason(res.status, res.body, t.key), 'answered');
  if (res.truncated) throw new AiCallError('the provider’s answer was too long', 'answered');
  return { ...textOf(t, res), durationMs: res.durationMs };
}
