import './checkout.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CheckoutPage } from './checkout-page';

const root = document.getElementById('root');
if (!root) throw new Error('checkout.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <CheckoutPage pathname={window.location.pathname} cookie={document.cookie} />
  </StrictMode>,
);
