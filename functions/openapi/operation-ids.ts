/** Operation ids a generated client turns into method names: `<group><Operation>`, unique. */
import { ROUTES, type RouteDefinition } from '#functions/routes';

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function operationIdOf(route: RouteDefinition): string {
  const base = `${route.group}${capitalised(route.operation)}`;
  const same = ROUTES.filter((r) => r.group === route.group && r.operation === route.operation);
  // Two methods sharing an operation (PATCH and PUT of a product): the later ones name their method.
  return same[0] === route || same.length === 1 ? base : `${base}Via${capitalised(route.method.toLowerCase())}`;
}
