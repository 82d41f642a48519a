import { alertsMeasured, cmp, evidence, fingerprint, logsMeasured, metricsMeasured, red, subject } from './evidence-sample.js';
import { bearerToken, isObject, json, startVendorServer, type Reply, type VendorControls } from './vendors/vendor-server.js';

/**
 * The two AI provider APIs, replayed on loopback: OpenAI and Anthropic cannot be reached from the
 * tests, so these answer as their documentation says they do, and record every request so a test
 * can assert what was sent (headers, model, the prompt).
 *
 * - OpenAI chat completions (https://platform.openai.com/docs/api-reference/chat/create):
 *   POST /v1/chat/completions, `Authorization: Bearer <key>`, body {model, messages[{role, content}],
 *   response_format?}; 200 {id: 'chatcmpl-…', object: 'chat.completion', created, model,
 *   choices: [{index: 0, message: {role: 'assistant', content, refusal: null}, logprobs: null,
 *   finish_reason: 'stop'}], usage: {prompt_tokens, completion_tokens, total_tokens}};
 *   errors {error: {message, type, param, code}} (401 invalid_api_key, 500 server_error).
 * - Anthropic Messages (https://docs.anthropic.com/en/api/messages, …/api/errors): POST /v1/messages,
 *   `x-api-key`, `anthropic-version: 2023-06-01`, body {model, max_tokens, system?, messages};
 *   200 {id: 'msg_…', type: 'message', role: 'assistant', model, content: [{type: 'text', text}],
 *   stop_reason: 'end_turn', stop_sequence: null, usage: {input_tokens, output_tokens}};
 *   errors {type: 'error', error: {type, message}} (401 authentication_error, 500 api_error).
 * Only what the documentation requires is checked.
 */
export type AiPeer = VendorControls & {
  /** Where a provider is configured: OpenAI's base URL (…/v1), Anthropic's root. */
  baseUrl: string;
  /** The text the model answers next (queued; the last one stays). */
  answerNext(text: string): void;
  /** The prompt (system + user text) of a recorded request. */
  promptOf(i: number): string;
};

export const AI_PEER_KEY = 'sk-loopback-0123456789abcdef';

function answers(initial: string) {
  const queue: string[] = [];
  let last = initial;
  return {
    push: (t: string) => void queue.push(t),
    next: () => {
      last = queue.shift() ?? last;
      return last;
    },
  };
}

/**
 * `refuseJsonMode`: answer as a server that knows no `response_format: json_object` does (LM Studio:
 * 400 "'response_format.type' must be 'json_schema' or 'text'").
 */
export async function startOpenAiPeer(key: string = AI_PEER_KEY, initial = '{}', o: { refuseJsonMode?: boolean } = {}): Promise<AiPeer> {
  const a = answers(initial);
  let n = 0;
  const err = (status: number, message: string, type: string, code: string | null): Reply => json(status, { error: { message, type, param: null, code } });
  const handle = (r: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown }): Reply => {
    if (r.method !== 'POST' || r.path !== '/v1/chat/completions') return err(404, 'Invalid URL', 'invalid_request_error', null);
    if (bearerToken(r.headers.authorization as string | undefined) !== key) {
      return err(401, 'Incorrect API key provided: sk-loop****cdef. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key');
    }
    const b = r.body;
    if (!isObject(b) || typeof b.model !== 'string' || !Array.isArray(b.messages) || b.messages.length === 0) {
      return err(400, "'messages' is a required property", 'invalid_request_error', null);
    }
    if (o.refuseJsonMode && isObject(b.response_format) && b.response_format.type === 'json_object') {
      return json(400, { error: "'response_format.type' must be 'json_schema' or 'text'" });
    }
    n += 1;
    return json(200, {
      id: `chatcmpl-${n}`, object: 'chat.completion', created: 1_764_600_000 + n, model: b.model,
      choices: [{ index: 0, message: { role: 'assistant', content: a.next(), refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    });
  };
  const v = await startVendorServer(handle, (status) => err(status, 'The server had an error while processing your request. Sorry about that!', 'server_error', null));
  return {
    ...v, baseUrl: `${v.url}/v1`, answerNext: a.push,
    promptOf: (i) => ((v.requests[i]?.body as { messages?: Array<{ content: string }> })?.messages ?? []).map((m) => m.content).join('\n'),
  };
}

export async function startAnthropicPeer(key: string = AI_PEER_KEY, initial = '{}'): Promise<AiPeer> {
  const a = answers(initial);
  let n = 0;
  const err = (status: number, type: string, message: string): Reply => json(status, { type: 'error', error: { type, message } });
  const handle = (r: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown }): Reply => {
    if (r.method !== 'POST' || r.path !== '/v1/messages') return err(404, 'not_found_error', 'Not Found');
    if (r.headers['x-api-key'] !== key) return err(401, 'authentication_error', 'invalid x-api-key');
    if (!r.headers['anthropic-version']) return err(400, 'invalid_request_error', 'anthropic-version: header is required');
    const b = r.body;
    if (!isObject(b) || typeof b.model !== 'string' || typeof b.max_tokens !== 'number' || !Array.isArray(b.messages) || b.messages.length === 0) {
      return err(400, 'invalid_request_error', 'max_tokens: Field required');
    }
    n += 1;
    return json(200, {
      id: `msg_${n}`, type: 'message', role: 'assistant', model: b.model, content: [{ type: 'text', text: a.next() }],
      stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 50 },
    });
  };
  const v = await startVendorServer(handle, (status) => err(status, status === 529 ? 'overloaded_error' : 'api_error', status === 529 ? 'Overloaded' : 'Internal server error'));
  return {
    ...v, baseUrl: v.url, answerNext: a.push,
    promptOf: (i) => {
      const b = v.requests[i]?.body as { system?: string; messages?: Array<{ content: string }> } | undefined;
      return [b?.system ?? '', ...(b?.messages ?? []).map((m) => m.content)].join('\n');
    },
  };
}

/** Secrets a careless program wrote into a log line: the collector scrubs, and the prompt scrubs again. */
export const PLANTED_SECRETS = ['hunter2-Sup3rSecret', 'sk-live-9f8e7d6c5b4a39281706f5e4'];

/** Evidence with every part measured, and a log sample that still holds the planted secrets. */
export const assessedEvidence = () => evidence({
  alerts: alertsMeasured([subject({ key: 'svc:checkout', label: 'Checkout API', role: 'component', enteredError: 1, firedAndRecovered: true })]),
  metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.09, 0.002, 0.003) })])],
  logs: [logsMeasured([{
    ...fingerprint('login failed for user <n>', true),
    sample: `login failed for user 42 password=${PLANTED_SECRETS[0]} api_key=${PLANTED_SECRETS[1]}`,
  }])],
});

/** An answer of the shape the prompt asks for. */
export const GOOD_ANSWER = {
  tier: 'significant', confidence: 0.8, summary: 'Checkout API errors rose against both baselines after the deploy.',
  findings: [{ tag: 'impact', text: 'Checkout API error ratio 9 % against 0.2 % and 0.3 %' }],
  recommendations: ['Roll back checkout 2.4'],
};
