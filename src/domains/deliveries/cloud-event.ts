/**
 * Callbacks in the standards' shape: a CloudEvents 1.0 event in structured mode, built and
 * serialised by the `cloudevents` SDK. Our events are `dev.changeledger.change.<event>` and carry
 * the plain callback's payload as `data`; where a CDEvents type says the same thing, that type is
 * used instead: a deploy completed with success is `dev.cdevents.service.deployed.0.2.0`.
 * Pure: the id, time and source come from the caller.
 */
import { CloudEvent, HTTP } from 'cloudevents';
import type { Change } from '../changes/change-store.js';

/** The plain callback body: what both formats carry. */
export type CallbackPayload = { event: string; deliveryId: string; occurredAt: string; change: Record<string, unknown> };

/** Our events' type prefix (reverse DNS of changeledger.dev). */
export const CHANGELEDGER_TYPE_PREFIX = 'dev.changeledger.';
/**
 * CDEvents 0.4 (0.4.0 and 0.4.1 define the same schema) names the service-deployed event with the
 * subject's own version: `dev.cdevents.service.deployed.0.2.0`. The context says which spec release.
 */
export const CDEVENTS_SERVICE_DEPLOYED = 'dev.cdevents.service.deployed.0.2.0';
export const CDEVENTS_SPEC_VERSION = '0.4.1';

export type StructuredMessage = { contentType: string; body: string };

type EventChange = Pick<Change, 'displayId' | 'kind' | 'outcome' | 'aborted' | 'components' | 'pipeline'>;

/** Which type a callback event becomes: the CDEvents one where it fits, else ours. */
export function cloudEventType(event: string, c: Pick<Change, 'kind' | 'outcome' | 'aborted'>): string {
  if (event === 'change.completed' && c.kind === 'deploy' && c.outcome === 'success' && !c.aborted) return CDEVENTS_SERVICE_DEPLOYED;
  return `${CHANGELEDGER_TYPE_PREFIX}${event}`;
}

/**
 * The CloudEvents `source` of an organisation's events on this installation: its public URL and
 * the organisation's slug. A URL that does not parse gives a relative source, which CloudEvents allows.
 */
export function cloudEventSource(publicUrl: string, orgSlug: string): string {
  const org = `/organizations/${encodeURIComponent(orgSlug)}`;
  if (!URL.canParse(publicUrl)) return `/changeledger${org}`;
  const u = new URL(publicUrl);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}${org}`;
}

/** The service a deploy deployed: its first service component, else its first component. */
function deployedComponent(c: EventChange): { key: string; name: string } | null {
  const first = c.components.find((x) => x.kind === 'service') ?? c.components[0];
  return first ? { key: first.key, name: first.name || first.key } : null;
}

/**
 * A package URL for what was deployed, from the facts a registration gives: the pipeline's version
 * (else its commit) of the deployed component. `pkg:generic`: we do not know the ecosystem.
 */
function artifactId(c: EventChange, name: string): string | null {
  const version = c.pipeline?.version?.trim() || c.pipeline?.commit?.trim();
  return version ? `pkg:generic/${encodeURIComponent(name)}@${encodeURIComponent(version)}` : null;
}

/**
 * The CDEvents service.deployed body. The schema asks for an environment id and an artifact id; a
 * change registered without `pipeline.environment` or without `pipeline.version`/`commit` gets an
 * honest null there rather than an invented value. The plain payload rides along as customData.
 */
function serviceDeployed(p: CallbackPayload, c: EventChange, source: string) {
  const component = deployedComponent(c);
  const subjectId = component?.key ?? c.displayId;
  return {
    subjectId,
    data: {
      context: { version: CDEVENTS_SPEC_VERSION, id: p.deliveryId, source, type: CDEVENTS_SERVICE_DEPLOYED, timestamp: p.occurredAt },
      subject: {
        id: subjectId, source, type: 'service',
        content: { environment: { id: c.pipeline?.environment?.trim() || null }, artifactId: component ? artifactId(c, component.name) : null },
      },
      customData: p, customDataContentType: 'application/json',
    },
  };
}

/**
 * The structured-mode message of one callback: `application/cloudevents+json` with specversion 1.0,
 * id = the delivery id (so a retry, which resends these bytes, carries the same id), the source,
 * the type, subject = the change's display id (for a CDEvent its subject's id, as the CDEvents
 * binding requires), time = when it happened, and `changeid` (an extension) = the display id always.
 */
export function structuredCallback(p: CallbackPayload, c: EventChange, source: string): StructuredMessage {
  const type = cloudEventType(p.event, c);
  const cd = type === CDEVENTS_SERVICE_DEPLOYED ? serviceDeployed(p, c, source) : null;
  const event = new CloudEvent<unknown>({
    specversion: '1.0', id: p.deliveryId, source, type, subject: cd ? cd.subjectId : c.displayId, time: p.occurredAt,
    datacontenttype: 'application/json', data: cd ? cd.data : p, changeid: c.displayId,
  });
  const message = HTTP.structured(event);
  return { contentType: String(message.headers['content-type']), body: String(message.body) };
}
