/** One page of products: name, demo state and when it was added; a row opens the product. */
import { Anchor, Table, Text } from '@mantine/core';
import { ResponsiveTable } from '../../components/ResponsiveTable';
import { DemoStatus } from './DemoStatus';
import type { Product } from './products-api';

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

export function ProductsTable({ products, onOpen }: { products: Product[]; onOpen: (id: number) => void }) {
  return (
    <ResponsiveTable columns={['Name', 'Demo', 'Added']} minWidth={560} verticalSpacing="sm" highlightOnHover aria-label="Products">
      {products.map((product) => (
        <Table.Tr key={product.id}>
          <Table.Td data-label="Name">
            <Anchor component="button" type="button" fw={500} onClick={() => onOpen(product.id)}>
              {product.name}
            </Anchor>
            {product.description && (
              <Text size="xs" c="gray.7" lineClamp={1}>
                {product.description}
              </Text>
            )}
          </Table.Td>
          <Table.Td data-label="Demo">
            <DemoStatus demo={product.demo_video} />
          </Table.Td>
          <Table.Td data-label="Added">
            <Text size="sm">{dateOf(product.created_at)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </ResponsiveTable>
  );
}
