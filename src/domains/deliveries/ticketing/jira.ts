import type { OutboundResponse } from '../../../platform/net/outbound.js';
import type { AdapterContext, JiraTicketing, ProbeStep, StepAnswer, TicketAdapter, TicketStep } from './ticket-types.js';
import {
  NO_TICKET_TO_UPDATE, asText, basicAuth, callVendor, clip, isRecord, isSuccess, parseJson, probeCall, probeResult, unanswered, vendorError,
  withChangeLink, withoutTrailingSlash,
} from './ticket-http.js';

/**
 * Jira Cloud speaks REST v3 (descriptions and comments in the Atlassian Document Format, Basic
 * auth with e-mail and API token); Data Center speaks v2 (plain strings, a personal access token
 * as Bearer). One issue per change: created with the step's line and the description, then one
 * comment per update. Workflow transitions are left to the project's own automation: their ids
 * differ per workflow.
 */

/** Jira refuses a longer summary ("Summary must be less than 255 characters."). */
export const JIRA_SUMMARY_MAX = 254;

type AdfText = { type: 'text'; text: string; marks?: Array<{ type: 'link'; attrs: { href: string } }> };
type AdfParagraph = { type: 'paragraph'; content: AdfText[] };
export type AdfDoc = { type: 'doc'; version: 1; content: AdfParagraph[] };

/** One paragraph per line; every occurrence of `link` becomes a link mark. Empty text nodes are invalid ADF. */
export function adfDoc(lines: string[], link?: string): AdfDoc {
  const paragraph = (line: string): AdfParagraph => {
    const pieces = link ? line.split(link) : [line];
    const content: AdfText[] = [];
    pieces.forEach((piece, i) => {
      if (i > 0 && link) content.push({ type: 'text', text: link, marks: [{ type: 'link', attrs: { href: link } }] });
      if (piece) content.push({ type: 'text', text: piece });
    });
    return { type: 'paragraph', content };
  };
  return { type: 'doc', version: 1, content: lines.map(paragraph) };
}

const api = (s: JiraTicketing) => `${withoutTrailingSlash(s.baseUrl)}/rest/api/${s.deployment === 'cloud' ? '3' : '2'}`;
const auth = (s: JiraTicketing) => (s.deployment === 'cloud' ? basicAuth(s.email ?? '', s.apiToken) : `Bearer ${s.apiToken}`);
const product = (s: JiraTicketing) => (s.deployment === 'cloud' ? 'Jira Cloud' : 'Jira Data Center');

/** `{errorMessages: [...], errors: {field: message}}`, or the `message` of a bare 401. */
function jiraErrors(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const out: string[] = [];
  if (Array.isArray(json.errorMessages)) for (const m of json.errorMessages) if (typeof m === 'string') out.push(m);
  if (isRecord(json.errors)) for (const [field, m] of Object.entries(json.errors)) if (typeof m === 'string') out.push(`${field}: ${m}`);
  if (!out.length && typeof json.message === 'string') out.push(json.message);
  return out;
}

/**
 * Jira serves a request with refused credentials anonymously where it can, so a wrong token may
 * come back as "valid project is required": the login header is what says so.
 */
function jiraError(res: OutboundResponse): string {
  const said = vendorError('Jira', res, jiraErrors);
  const reason = String(res.headers['x-seraph-loginreason'] ?? '');
  return res.status !== 401 && reason.includes('AUTHENTICATED_FAILED') ? `${said} (Jira did not accept the credentials and answered as to an anonymous user)` : said;
}

function failed(res: OutboundResponse, calls: number): StepAnswer {
  return { status: res.status, error: jiraError(res), calls };
}

async function create(ctx: AdapterContext, s: JiraTicketing, step: TicketStep): Promise<StepAnswer> {
  const link = step.change.links.change;
  const lines = withChangeLink([step.text, ...step.description], link).flatMap((l) => l.split('\n'));
  const fields = {
    project: { key: s.projectKey },
    summary: clip(step.summary, JIRA_SUMMARY_MAX),
    issuetype: { name: s.issueType },
    labels: s.labels,
    description: s.deployment === 'cloud' ? adfDoc(lines, link) : lines.join('\n'),
  };
  const res = await callVendor(ctx, 'POST', `${api(s)}/issue`, auth(s), { fields });
  if (!isSuccess(res.status)) return failed(res, 1);
  const answer = parseJson(res.body);
  const key = isRecord(answer) ? asText(answer.key) : null;
  if (!key) return { status: res.status, note: `Jira answered ${res.status} without an issue key: updates cannot reach the issue`, calls: 1 };
  const id = (isRecord(answer) ? asText(answer.id) : null) ?? key;
  return { status: res.status, ticket: { kind: 'jira', id, key, url: `${withoutTrailingSlash(s.baseUrl)}/browse/${key}` }, calls: 1 };
}

async function comment(ctx: AdapterContext, s: JiraTicketing, step: TicketStep): Promise<StepAnswer> {
  if (!step.ticket) return NO_TICKET_TO_UPDATE;
  const body = s.deployment === 'cloud' ? adfDoc(step.text.split('\n'), step.change.links.change) : step.text;
  const res = await callVendor(ctx, 'POST', `${api(s)}/issue/${encodeURIComponent(step.ticket.key)}/comment`, auth(s), { body });
  return isSuccess(res.status) ? { status: res.status, calls: 1 } : failed(res, 1);
}

export const jiraAdapter: TicketAdapter<JiraTicketing> = {
  send: (ctx, s, step) => (step.action === 'create' ? create(ctx, s, step) : comment(ctx, s, step)),

  async probe(ctx, s) {
    const steps: ProbeStep[] = [];
    const me = await probeCall(() => callVendor(ctx, 'GET', `${api(s)}/myself`, auth(s)));
    if (me instanceof Error) steps.push(unanswered('authenticate', me));
    else if (!isSuccess(me.status)) steps.push({ name: 'authenticate', ok: false, status: me.status, detail: jiraError(me) });
    else {
      const user = parseJson(me.body);
      const who = isRecord(user) ? (asText(user.displayName) ?? asText(user.name) ?? asText(user.emailAddress)) : null;
      steps.push({ name: 'authenticate', ok: true, status: me.status, detail: `as ${who ?? 'an unnamed user'}` });
    }
    // Without a signed-in user every project looks missing: the first failure is the one to fix.
    if (steps[0]!.ok) {
      const name = `project ${s.projectKey}`;
      const res = await probeCall(() => callVendor(ctx, 'GET', `${api(s)}/project/${encodeURIComponent(s.projectKey)}`, auth(s)));
      if (res instanceof Error) steps.push(unanswered(name, res));
      else if (!isSuccess(res.status)) steps.push({ name, ok: false, status: res.status, detail: jiraError(res) });
      else {
        const project = parseJson(res.body);
        const title = isRecord(project) ? asText(project.name) : null;
        steps.push({ name, ok: true, status: res.status, detail: title ? `${s.projectKey} — ${title}` : s.projectKey });
      }
    }
    return probeResult('jira', steps, () => `${product(s)} answered ${steps[0]!.detail}; project ${s.projectKey} found`);
  },
};
