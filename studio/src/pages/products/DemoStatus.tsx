/** A product's demo clip state in one word: "ready", "processing", "failed" or "no demo". */
import { Badge, Tooltip } from '@mantine/core';
import type { Product } from './products-api';

const COLORS = { ready: 'green', processing: 'blue', failed: 'red' } as const;

export function DemoStatus({ demo }: { demo: Product['demo_video'] }) {
  if (!demo) {
    return (
      <Badge color="gray" variant="dot">
        no demo
      </Badge>
    );
  }
  const badge = (
    <Badge color={COLORS[demo.status]} variant="dot">
      {demo.status}
    </Badge>
  );
  return demo.error ? <Tooltip label={demo.error.message}>{badge}</Tooltip> : badge;
}
