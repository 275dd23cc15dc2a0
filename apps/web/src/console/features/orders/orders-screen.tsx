import { Route, Routes } from 'react-router';
import { OrderPage } from './order-page';
import { OrdersList } from './orders-list';

/** Orders: the filtered list, and each order's page at `orders/<no>` (which the customers' pages link to). */
export default function OrdersScreen() {
  return (
    <Routes>
      <Route index element={<OrdersList />} />
      <Route path=":no" element={<OrderPage />} />
    </Routes>
  );
}
