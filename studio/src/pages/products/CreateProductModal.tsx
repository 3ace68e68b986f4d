/**
 * A new product: name, description and an optional demo clip, with how to make a landscape or square
 * clip portrait and which part of it to keep. The clip goes straight to storage with a progress bar
 * first; the product is created once it is there, and its demo is then processed in the background
 * (the list shows it as "processing" until "ready").
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconVideo } from '../../components/icons';
import { useMutation } from '@tanstack/react-query';
import { CountedTextarea, CountedTextInput } from '../../components/CountedText';
import { FileDropField } from '../../components/FileDropField';
import { ProblemAlert } from '../../components/ProblemAlert';
import { TEXT_LIMITS } from '../../intake/limits';
import { overLimit } from '../../intake/text-count';
import { UploadProgress, useUpload } from '../../api/upload';
import type { MediaFacts } from '../../intake/file-check';
import { DEMO_INTAKE_DEFAULTS, demoIntakeBody, isIntakeProblem, type DemoIntakeBody, type DemoIntakeForm, type IntakeProblem } from './demo-intake';
import { DemoIntakeFields } from './DemoIntakeFields';
import { useCreateProduct } from './products-api';

interface Values {
  name: string;
  description: string;
  demo: File | null;
}

export function CreateProductModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<Values>({
    initialValues: { name: '', description: '', demo: null },
    validate: {
      name: (name) => (name.trim() ? overLimit(TEXT_LIMITS.productName, name, 'The name') : 'Give the product a name'),
      description: (description) => overLimit(TEXT_LIMITS.productDescription, description, 'The description'),
    },
  });
  const demo = useUpload('demo_video');
  const [checking, setChecking] = useState(false);
  const create = useCreateProduct();
  const [facts, setFacts] = useState<MediaFacts | null>(null);
  const [intake, setIntake] = useState<DemoIntakeForm>(DEMO_INTAKE_DEFAULTS);
  const [intakeProblem, setIntakeProblem] = useState<IntakeProblem | null>(null);
  const submit = useMutation({
    mutationFn: async ({ values, demoIntake }: { values: Values; demoIntake: DemoIntakeBody }) => {
      const upload = values.demo ? await demo.upload(values.demo) : undefined;
      return create.mutateAsync({ name: values.name.trim(), description: values.description.trim(), demoUploadId: upload?.id, ...(upload ? { intake: demoIntake } : {}) });
    },
    onSuccess: (product) => {
      notifications.show({ color: 'green', title: 'Product created', message: product.demo_video ? 'Its demo is being processed; the list shows when it is ready.' : product.name });
      close();
    },
  });
  function close() {
    demo.cancel();
    submit.reset();
    form.reset();
    setFacts(null);
    setIntake(DEMO_INTAKE_DEFAULTS);
    setIntakeProblem(null);
    onClose();
  }
  const send = (values: Values) => {
    const demoIntake = values.demo ? demoIntakeBody(intake, facts) : {};
    setIntakeProblem(isIntakeProblem(demoIntake) ? demoIntake : null);
    if (!isIntakeProblem(demoIntake)) submit.mutate({ values, demoIntake });
  };
  return (
    <Modal opened={opened} onClose={close} title="New product" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={form.onSubmit(send)}>
        <Stack>
          <CountedTextInput label="Name" required limit={TEXT_LIMITS.productName} {...form.getInputProps('name')} />
          <CountedTextarea
            label="Description"
            description="What it is and who it is for; hook ideas draw on it."
            autosize
            minRows={2}
            limit={TEXT_LIMITS.productDescription}
            {...form.getInputProps('description')}
          />
          <FileDropField
            purpose="demo_video"
            label="Demo video"
            description="Optional: a short clip of the product in use, which your reaction videos show."
            leftSection={<IconVideo size={16} />}
            value={form.values.demo}
            onChange={(demo) => form.setFieldValue('demo', demo)}
            onCheckingChange={setChecking}
            onFacts={setFacts}
          />
          {form.values.demo && <DemoIntakeFields facts={facts} value={intake} onChange={setIntake} problem={intakeProblem} />}
          <UploadProgress value={demo.progress} label="Uploading demo video" />
          <ProblemAlert error={submit.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={submit.isPending} disabled={checking}>
              Create product
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
