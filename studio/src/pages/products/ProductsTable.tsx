/** One page of products: name, demo state and when it was added; a row opens the product. */
import { Anchor, Table, Text } from '@mantine/core';
import { ResponsiveTable } from '../../components/ResponsiveTable';
import { DemoStatus } from './DemoStatus';
import type { Product } from './products-api';

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

export function ProductsTable({ products, onOpen }: { products: Product[]; onOpen: (id: number) => void }) {
  return (
    <ResponsiveTable minWidth={560} verticalSpacing="sm" highlightOnHover aria-label="Products">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Demo</Table.Th>
            <Table.Th>Added</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
    </ResponsiveTable>
  );
}
