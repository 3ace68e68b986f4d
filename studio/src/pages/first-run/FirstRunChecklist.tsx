/**
 * The way to a first video, for an account that has not made one: add a product (or try the
 * sample), pick or make an avatar, make a video. Each step is ticked from the account's own data, and
 * a step that is under way (a demo being prepared, a job running) says so and ticks itself.
 */
import type { ReactNode } from 'react';
import { Anchor, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Product } from '#client/types';
import { IconCheck } from '../../components/icons';
import { jobToFollow, type FirstRun, type FirstRunFacts, type FirstRunStep } from './first-run';
import { SampleProductButton } from './SampleProductButton';

const MARK_WORDS = { todo: 'to do', waiting: 'under way', done: 'done' } as const;

function StepMark({ step, number }: { step: FirstRunStep; number: number }) {
  if (step.state === 'waiting') return <Loader size={28} aria-hidden />;
  return (
    <ThemeIcon size={28} radius="xl" color={step.state === 'done' ? 'green.8' : 'gray.7'} variant={step.state === 'done' ? 'filled' : 'outline'} aria-hidden>
      {step.state === 'done' ? <IconCheck size={16} stroke={2.4} /> : <Text size="sm" fw={700}>{number}</Text>}
    </ThemeIcon>
  );
}

export interface ChecklistProps {
  run: FirstRun;
  jobs: FirstRunFacts['jobs'];
  /** Which page shows it: a step does not link to the page it is on. */
  where: 'create' | 'products';
  /** Opens the new-product form, where the page has one. */
  onAddProduct?: () => void;
  onSample?: (product: Product) => void;
}

function StepActions({ step, jobs, where, onAddProduct, onSample }: Omit<ChecklistProps, 'run'> & { step: FirstRunStep }): ReactNode {
  if (step.key === 'product' && step.state === 'todo') {
    return (
      <Group gap="sm">
        <SampleProductButton onCreated={onSample} />
        {onAddProduct ? (
          <Anchor component="button" type="button" size="sm" underline="always" onClick={onAddProduct}>
            Add your own product
          </Anchor>
        ) : (
          <Anchor component={Link} to="/products" size="sm" underline="always">
            Add your own product
          </Anchor>
        )}
      </Group>
    );
  }
  if (step.key === 'avatar' && step.state !== 'waiting') {
    return (
      <Anchor component={Link} to="/avatars" size="sm" underline="always">
        See the avatars
      </Anchor>
    );
  }
  const following = jobToFollow(jobs);
  if (step.key === 'video' && following !== null) {
    return (
      <Anchor component={Link} to={`/jobs/${following}`} size="sm" underline="always">
        Follow your video
      </Anchor>
    );
  }
  if (step.key === 'video' && where !== 'create') {
    return (
      <Anchor component={Link} to="/create" size="sm" underline="always">
        Go to New video
      </Anchor>
    );
  }
  return null;
}

export function FirstRunChecklist({ run, ...props }: ChecklistProps) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="first-run-title">
      <Title order={3} size="h4" id="first-run-title">
        Your first video in three steps
      </Title>
      <Text size="sm" c="gray.7" mb="md">
        Each step ticks itself as it is done.
      </Text>
      <Stack component="ol" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
        {run.steps.map((step, i) => (
          <li key={step.key}>
            <Group align="flex-start" wrap="nowrap" gap="sm">
              <StepMark step={step} number={i + 1} />
              <Stack gap={6} style={{ flex: 1 }}>
                <Text fw={600}>
                  {step.title} <Text span size="sm" fw={400} c="gray.7">({MARK_WORDS[step.state]})</Text>
                </Text>
                <Text size="sm">{step.detail}</Text>
                <StepActions step={step} {...props} />
              </Stack>
            </Group>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}
