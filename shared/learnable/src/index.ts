export { Learnable, deepFreeze } from './learnable.ts';
export type { Learned, LearnableKind } from './learnable.ts';
export { LessonRefused, UnlearnableValue, MalformedLesson, UnknownCollection, UnknownEntry } from './errors.ts';
export { defineCollection, findEntry } from './definition.ts';
export type { Definition } from './definition.ts';
export { absorbLesson } from './absorb-lesson.ts';
export type { Absorbed } from './absorb-lesson.ts';
