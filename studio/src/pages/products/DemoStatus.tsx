/** A product's demo clip state in one word: "ready", "processing", "failed" or "no demo". */
import { Badge, Loader, Tooltip } from '@mantine/core';
import type { Product } from './products-api';

const COLORS = { ready: 'green', processing: 'blue', failed: 'red' } as const;

export function DemoStatus({ demo }: { demo: Product['demo_video'] }) {
  if (!demo) {
    return (
      <Badge color="gray" variant="light">
        no demo
      </Badge>
    );
  }
  const badge = (
    <Badge color={COLORS[demo.status]} variant="light" leftSection={demo.status === 'processing' ? <Loader size={10} color="blue" aria-hidden /> : undefined}>
      {demo.status}
    </Badge>
  );
  return demo.error ? <Tooltip label={demo.error.message}>{badge}</Tooltip> : badge;
}
