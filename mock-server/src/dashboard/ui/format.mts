/** Times in the viewer's own zone and language; numbers grouped. */
const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const number = new Intl.NumberFormat();

export const when = (iso: string) => time.format(new Date(iso));
export const count = (n: number) => number.format(n);
export const signed = (n: number) => (n > 0 ? `+${number.format(n)}` : number.format(n));
export const flag = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : '–');
