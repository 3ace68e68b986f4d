/**
 * What a page or section shows of a query before it has data: a spinner named for what loads, or the
 * problem once it has failed (a query is never both).
 */
import { Center, Loader, type MantineSize } from '@mantine/core';
import { ProblemAlert } from './ProblemAlert';

interface Props {
  query: { isPending: boolean; error: unknown };
  /** What a screen reader hears while it loads: "Loading usage". */
  loading: string;
  size?: MantineSize;
  /** Spaced out in the middle of a page that has nothing else to show yet. */
  centered?: boolean;
}

export function QueryStatus({ query, loading, size, centered }: Props) {
  const loader = query.isPending && <Loader size={size} aria-label={loading} />;
  return (
    <>
      <ProblemAlert error={query.error} />
      {centered && loader ? <Center p="xl">{loader}</Center> : loader}
    </>
  );
}
