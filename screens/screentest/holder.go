package screentest

// WithHolderDir keeps the card holder's own data (budgets, guard rules,
// notes) in dir, as the profile's folder.
func WithHolderDir(dir string) Option { return func(s *Setup) { s.Shell.HolderDir = dir } }
