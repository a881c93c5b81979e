package insights

// tag is the bucket of a tag the holder gave transactions.
func (a *Aggregator) tag(name string) *Bucket {
	if a.tags == nil {
		a.tags = map[string]*Bucket{}
	}
	b := a.tags[name]
	if b == nil {
		b = newBucket(name, "#"+name)
		b.Tag = name
		a.tags[name] = b
	}
	return b
}

// Tags are the tags spent under in currency, the largest first.
func (a *Aggregator) Tags(currency string, limit int) []*Bucket {
	return largest(inCurrency(a.tags, currency), currency, limit)
}
