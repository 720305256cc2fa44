/** customElements.define, once: a second copy of the module (a newer ?v= after an update, before
 * the page reloads) keeps the elements the page already has instead of throwing. */
export function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}
