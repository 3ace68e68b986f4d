/** How the reaction is made: from a prompt, by copying a reference video's motion, or from the library. */
import type { Dispatch, SetStateAction } from 'react';
import { Stack } from '@mantine/core';
import { ChoiceField } from '../../components/ChoiceField';
import { optionsOf } from '../../components/options';
import { AvatarSelect } from './AvatarSelect';
import { ReactionPromptField } from './ReactionPromptField';
import { ReactionSelect } from './ReactionSelect';
import type { Reference } from './reference';
import { ReferenceVideoFields } from './ReferenceVideoFields';
import type { CreateForm, Method } from './video-request';

const METHODS = optionsOf<Method>({ prompt: 'Prompt', motion: 'Motion', reuse: 'Reuse' });

const METHOD_HELP: Record<Method, string> = {
  prompt: 'Describe the reaction; a person is drawn from the prompt unless you pick an avatar.',
  motion: 'An avatar copies the movement of a reference video.',
  reuse: 'A reaction saved in your library, captioned again; nothing is generated.',
};

interface Props {
  form: CreateForm;
  set: <K extends keyof CreateForm>(key: K, value: CreateForm[K]) => void;
  reference: Reference;
  setReference: Dispatch<SetStateAction<Reference>>;
}

export function MethodFields({ form, set, reference, setReference }: Props) {
  return (
    <Stack gap="sm">
      <ChoiceField label="Method" help={METHOD_HELP[form.method]} data={METHODS} value={form.method} onChange={(method) => set('method', method)} />
      {form.method === 'prompt' && (
        <>
          <ReactionPromptField
            description="Who reacts and how, e.g. “a woman in her 30s, shocked by the price, then delighted”"
            required
            value={form.prompt}
            onChange={(prompt) => set('prompt', prompt)}
          />
          <AvatarSelect value={form.avatarId} onChange={(avatarId) => set('avatarId', avatarId)} label="Avatar (optional)" description="Leave empty to draw a person from the prompt" />
        </>
      )}
      {form.method === 'motion' && (
        <>
          <AvatarSelect value={form.avatarId} onChange={(avatarId) => set('avatarId', avatarId)} required />
          <ReferenceVideoFields value={reference} onChange={setReference} />
        </>
      )}
      {form.method === 'reuse' && <ReactionSelect value={form.reactionId} onChange={(reactionId) => set('reactionId', reactionId)} />}
    </Stack>
  );
}
