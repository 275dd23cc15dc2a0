import { Route, Routes } from 'react-router';
import { CustomerList } from './customer-list';
import { CustomerPage } from './customer-page';

/** Customers: the searchable list, and each customer's page below it (`customers/<id>`). */
export default function CustomersScreen() {
  return (
    <Routes>
      <Route index element={<CustomerList />} />
      <Route path=":id" element={<CustomerPage />} />
    </Routes>
  );
}
