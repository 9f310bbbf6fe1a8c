// One value per owner object, made on first use and dropped with the owner: the memos kept per
// Storage (tests open many storages in one process; each must have its own memo, and a closed
// one's must go with it).

export function perOwner<O extends object, V>(make: () => V): (owner: O) => V {
  const values = new WeakMap<O, V>();
  return (owner) => {
    let value = values.get(owner);
    if (value === undefined) {
      value = make();
      values.set(owner, value);
    }
    return value;
  };
}
