/**
 * The revert drafted for one Azure Activity Log write. Pure. An Activity Log entry names the
 * operation and the resource, and at most the request body: the state before is never in it. So
 * the only write a command can undo from the entry alone is a new role assignment (delete it by
 * its id); for the rest the person is told what is known and why no command is drafted.
 */
import type { RevertDraft } from '../unmanaged/unmanaged-types.js';
import { isObj, str } from './cloud-fields.js';
import { commandLine, dashRefused, noInverse, prettyJson } from './revert-k8s.js';

/** What the draft is made from: the operation (any case), the resource id and the request body as stored (secrets' values left out). */
export type AzureWriteFacts = { operation: string; resourceId: string | null; requestBody: string | null };

const ROLE_ASSIGNMENT_WRITE = /^microsoft\.authorization\/roleassignments\/write$/i;
const LOCK_DELETE = /^microsoft\.authorization\/locks\/delete$/i;
/** Deletes that no command brings back; these are the ones SecOps asks about most. */
const GONE = [
  { op: /^microsoft\.resources\/(subscriptions\/)?resourcegroups\/delete$/i, what: 'resource group (with every resource in it)' },
  { op: /^microsoft\.compute\/virtualmachines\/delete$/i, what: 'virtual machine' },
];
/** `…/providers/Microsoft.Authorization/locks/<name>` at the end of a lock's id; what precedes it is the scope it guarded. */
const LOCK_ID = /^(.*)\/providers\/Microsoft\.Authorization\/locks\/([^/]+)\/?$/i;

/** The request body as shown: pretty JSON when it is JSON, else as stored. */
function bodyText(body: string | null): string | null {
  if (!body) return null;
  try {
    return prettyJson(JSON.parse(body) as unknown);
  } catch {
    return prettyJson(body);
  }
}

/** `for principal … with role definition …`, from a role assignment's request body when it was logged. */
function assignmentWords(body: string | null): string {
  if (!body) return '';
  try {
    const parsed = JSON.parse(body) as unknown;
    const props = isObj(parsed) && isObj(parsed.Properties) ? parsed.Properties : isObj(parsed) && isObj(parsed.properties) ? parsed.properties : {};
    const principal = str(props.PrincipalId) ?? str(props.principalId);
    const role = str(props.RoleDefinitionId) ?? str(props.roleDefinitionId);
    const roleWords = role ? ` with the role definition ${role.slice(role.lastIndexOf('/') + 1)}` : '';
    return principal ? ` (principal ${principal}${roleWords})` : '';
  } catch {
    return '';
  }
}

/** The revert of one applied Azure write (a refused one changed nothing and gets none). */
export function draftAzureRevert(f: AzureWriteFacts): RevertDraft {
  const { operation, resourceId, requestBody } = f;
  const known = (extra: Record<string, unknown> = {}) => prettyJson({ operation, ...(resourceId ? { resourceId } : {}), ...extra });

  if (ROLE_ASSIGNMENT_WRITE.test(operation)) {
    if (!resourceId || !resourceId.startsWith('/') || !/\/providers\/Microsoft\.Authorization\/roleAssignments\/[^/]+\/?$/i.test(resourceId)) {
      return noInverse('The entry does not carry the id of the role assignment, so no command can name it.', bodyText(requestBody) ?? known());
    }
    const command = commandLine('az role assignment delete', ['--ids', resourceId]);
    if (!command) return dashRefused(known());
    return { tool: 'az', summary: `Removes the role assignment this write made${assignmentWords(requestBody)}: whoever it was given to loses that access.`, command, manifest: null, changed: null };
  }

  if (LOCK_DELETE.test(operation)) {
    const m = resourceId ? LOCK_ID.exec(resourceId) : null;
    const scope = m?.[1] || null;
    const lock = m?.[2] ?? null;
    return noInverse(
      `The lock ${lock ?? '(unnamed)'} was removed from ${scope ?? 'a scope the entry does not name'}. Its level (CanNotDelete or ReadOnly) and notes are not in the entry, so no command can re-create it as it was: create it again with \`az lock create\` from where it is defined.`,
      known({ ...(lock ? { lock } : {}), ...(scope ? { scope } : {}) }),
    );
  }

  const gone = GONE.find((g) => g.op.test(operation));
  if (gone) {
    return noInverse(`A deleted ${gone.what} cannot be brought back by a command: it can only be restored from a backup, or created again from its template.`, known());
  }

  return noInverse(`No known inverse for ${operation}: the entry does not hold the state before this write.`, bodyText(requestBody) ?? known());
}
