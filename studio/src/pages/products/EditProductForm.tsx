/** Rename a product or change its description; the demo clip stays as it is. */
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CountedTextarea, CountedTextInput } from '../../components/CountedText';
import { ProblemAlert } from '../../components/ProblemAlert';
import { TEXT_LIMITS } from '../../intake/limits';
import { overLimit } from '../../intake/text-count';
import { useUpdateProduct, type Product } from './products-api';

export function EditProductForm({ product }: { product: Product }) {
  const form = useForm({
    initialValues: { name: product.name, description: product.description ?? '' },
    validate: {
      name: (name) => (name.trim() ? overLimit(TEXT_LIMITS.productName, name, 'The name') : 'Give the product a name'),
      description: (description) => overLimit(TEXT_LIMITS.productDescription, description, 'The description'),
    },
  });
  const update = useUpdateProduct(product.id);
  const save = form.onSubmit((values) =>
    update.mutate(
      { name: values.name.trim(), description: values.description.trim() || null },
      {
        onSuccess: (saved) => {
          form.resetDirty({ name: saved.name, description: saved.description ?? '' });
          notifications.show({ color: 'green', title: 'Saved', message: saved.name });
        },
      },
    ),
  );
  return (
    <form onSubmit={save}>
      <Stack gap="sm">
        <CountedTextInput label="Name" required limit={TEXT_LIMITS.productName} {...form.getInputProps('name')} />
        <CountedTextarea label="Description" autosize minRows={2} limit={TEXT_LIMITS.productDescription} {...form.getInputProps('description')} />
        <ProblemAlert error={update.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
