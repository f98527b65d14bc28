/** The word for `n` things: one or other (both languages count alike). */
export const plural = (n, one, other) => (n === 1 ? one : other);
