/**
 * Text fields with a live count of what the API counts (studio/src/intake/text-count.ts) against its
 * limit, beside the field's description. Text past the limit stays as typed or pasted (nothing is cut
 * off silently) and the field says how much too long it is; the forms refuse to send it.
 */
import type { ReactNode } from 'react';
import { Textarea, TextInput, VisuallyHidden, type TextareaProps, type TextInputProps } from '@mantine/core';
import type { TextLimit } from '../intake/limits';
import { counted, overLimit } from '../intake/text-count';
import classes from './fields.module.css';

interface Counting {
  limit: TextLimit;
  /** Controlled: the count follows it (a form's getInputProps gives it). */
  value?: string;
}

function countedProps(limit: TextLimit, value: string, description: ReactNode, error: ReactNode) {
  const { count, max, over } = counted(limit, value);
  return {
    description: (
      <span className={classes.describedLine}>
        <span>{description}</span>
        <span className={classes.count} data-over={over > 0 || undefined}>
          {count}/{max}
          <VisuallyHidden> characters</VisuallyHidden>
        </span>
      </span>
    ),
    error: overLimit(limit, value) ?? error,
  };
}

export function CountedTextInput({ limit, value = '', description, error, ...props }: Omit<TextInputProps, 'value'> & Counting) {
  return <TextInput {...props} value={value} {...countedProps(limit, value, description, error)} />;
}

export function CountedTextarea({ limit, value = '', description, error, ...props }: Omit<TextareaProps, 'value'> & Counting) {
  return <Textarea {...props} value={value} {...countedProps(limit, value, description, error)} />;
}
