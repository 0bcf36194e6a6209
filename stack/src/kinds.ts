import { customerMarksKind } from '@learnables/email-agent';
import type { LearnableKind } from '@learnables/learnable';
import { columnMappingKind } from '@learnables/manifest-agent';
import { weightLimitKind } from '@learnables/threshold-agent';

/** Every learnable kind this stack serves. The authority is handed these; it imports no agent. */
export const learnableKinds: readonly LearnableKind[] = [customerMarksKind, columnMappingKind, weightLimitKind];
