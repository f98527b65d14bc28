// The pause menu's place on the table screen: drawn again only when what it shows changes (its
// key: table/menu.js), and the page under it kept still while it is open.

import { mount } from '../dom.js';
import { menuKey, renderMenu } from './menu.js';

export function menuRegion() {
  let shown = null; // the menu's key as last drawn
  let open = false;
  return {
    /** Draw the menu of `p` (closed: nothing) in `region`. */
    draw(region, p) {
      const key = p.st.menu ? menuKey(p) : '';
      if (!!p.st.menu !== open) { // another dialog may hold the class too
        open = !!p.st.menu;
        document.body.classList.toggle('modal-open', open);
      }
      if (key === shown) return;
      shown = key;
      mount(region, renderMenu(p));
    },
    /** The region was built again: draw it whatever the key. */
    reset() { shown = null; },
    close() {
      if (open) document.body.classList.remove('modal-open');
    },
  };
}
