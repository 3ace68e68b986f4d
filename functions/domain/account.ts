import type { PlanName } from './plans';

export interface Account {
  id: number;
  name: string;
  plan: PlanName;
  created_at: string;
}
