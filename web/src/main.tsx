import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The shared stylesheets first, in this order: each component's own stylesheet (imported by
// the component) comes after them in the bundle and may build on them.
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/surfaces.css';
import './styles/tables.css';
import './styles/badges.css';
import './styles/filters.css';
import './styles/timeline.css';
import './styles/settings.css';
import './styles/governance.css';
import { App } from './app';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html is missing the #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
