import { referencePattern, senderPattern } from '@learnables/email-agent';

export const address = (i: number) => `buyer${i}@customer${i}.example`;
export const reference = (i: number) => `CU-2026-${String(i).padStart(6, '0')}`;

/** Two marks per customer, as suggestions make them: the exact sender, and a reference in the subject. */
export function seedCustomers(marks: number): Record<string, unknown> {
  const customers: Record<string, unknown> = {};
  for (let c = 0; c < marks / 2; c += 1) {
    customers[`customer-${c}`] = {
      name: `Customer ${c}`,
      marks: [
        { pattern: senderPattern(address(c)), where: 'from' },
        { pattern: referencePattern(reference(c)), where: c % 10 === 0 ? 'any' : 'subject' },
      ],
    };
  }
  return customers;
}
