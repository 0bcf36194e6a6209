export { WeightLimit, weightLimitKind, limitLesson, HEAVIEST_PARCEL_KG } from './weight-limit.ts';
export type { LimitLesson, WeightLimitState } from './weight-limit.ts';
export { thresholdAgent, HOW, VERDICTS } from './threshold-agent.ts';
export type { ParcelCheck } from './threshold-agent.ts';
export { parseParcel } from './parse-parcel.ts';
export type { Parcel } from './parse-parcel.ts';
export { seedsFolder } from './seeds-folder.ts';
