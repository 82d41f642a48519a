import { expect } from 'vitest';

// A person's session on a running server (a browser suite's set-up and the steps it does not
// click through), and a JSON call that fails the test with the server's answer when refused.

export type ApiSession = { cookie: string; csrf: string };
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function apiSession(baseUrl: string, email: string, password: string): Promise<ApiSession> {
  const r = await fetch(new URL('/api/session', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(r.status).toBe(200);
  const { csrfToken } = (await r.json()) as { csrfToken: string };
  return { cookie: r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), csrf: csrfToken };
}

export async function call(baseUrl: string, s: ApiSession, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Json> {
  const init: RequestInit = { method, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...(body === undefined ? {} : { 'content-type': contentType }) } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const r = await fetch(new URL(path, baseUrl), init);
  const text = await r.text();
  expect(r.ok, `${method} ${path}: ${text}`).toBe(true);
  return (text === '' ? {} : JSON.parse(text)) as Json;
}

