/** What cdk-nag's packs say about a construct tree, as the nag test reads it. */
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { nagPacks } from '#cloud/nag';

/** `severity rule: path, path` per finding, the stack's name left out. */
export function nagFindings(scope: IConstruct): string[] {
  return nagPacks().flatMap((pack) =>
    pack.validateScope(scope).violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
  );
}

export interface Acknowledgement {
  path: string;
  id: string;
  reason: unknown;
}

/** Every acknowledgement recorded below `scope`: rule id and reason. */
export function nagAcknowledgements(scope: IConstruct): Acknowledgement[] {
  return scope.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.entries(m.data as Record<string, unknown>).map(([id, reason]) => ({ path: c.node.path, id, reason }))),
  );
}
