// The page's custom elements, one file each.
import './catalog.js';
import './search.js';
import './conversation.js';
