package ledger

import (
	"strconv"
	"strings"

	"cardterm/domain/lazy"
)

// Merchant category codes (ISO 18245) name what a card was spent on; the
// gateway sends the code and, sometimes, a category word of its own.
// MCCName gives the code's name, so totals read "Grocery stores,
// supermarkets" rather than 5411.

// mccNames are the names of the common codes, built at first use: a
// package map would be built before main on every start.
var mccNames = lazy.Value[map[int]string]{New: func() map[int]string {
	return map[int]string{
		742: "Veterinary services", 763: "Agricultural cooperatives", 780: "Landscaping services",
		1520: "General contractors", 1711: "Heating, plumbing, air conditioning", 1731: "Electrical contractors",
		1799: "Special trade contractors", 2741: "Publishing and printing", 2842: "Cleaning and sanitation products",
		4011: "Railroads (freight)", 4111: "Commuter transport, ferries", 4112: "Passenger railways",
		4119: "Ambulance services", 4121: "Taxis and rideshare", 4131: "Bus lines", 4214: "Freight and trucking",
		4215: "Courier services", 4225: "Warehousing and storage", 4411: "Cruise lines", 4457: "Boat rentals",
		4468: "Marinas", 4511: "Airlines and air carriers", 4582: "Airports and terminals", 4722: "Travel agencies and tour operators",
		4784: "Tolls and bridge fees", 4789: "Transportation services", 4812: "Telecommunication equipment",
		4814: "Telecommunication services", 4816: "Computer network services", 4821: "Telegraph services",
		4829: "Money transfers", 4899: "Cable, satellite and streaming TV", 4900: "Utilities (electric, gas, water)",
		5013: "Motor vehicle supplies", 5021: "Office furniture", 5039: "Construction materials", 5044: "Office equipment",
		5045: "Computers and software", 5046: "Commercial equipment", 5047: "Medical and dental equipment",
		5065: "Electrical parts", 5072: "Hardware supplies", 5111: "Stationery and office supplies",
		5122: "Drugs and druggist sundries", 5137: "Uniforms and commercial clothing", 5192: "Books, periodicals and newspapers",
		5200: "Home supply warehouses", 5211: "Lumber and building materials", 5251: "Hardware stores",
		5261: "Nurseries and garden supplies", 5300: "Wholesale clubs", 5309: "Duty-free stores",
		5310: "Discount stores", 5311: "Department stores", 5331: "Variety stores", 5399: "General merchandise",
		5411: "Grocery stores, supermarkets", 5422: "Butchers and freezer meat", 5441: "Candy and confectionery",
		5451: "Dairy stores", 5462: "Bakeries", 5499: "Convenience and specialty food", 5511: "Car dealers (new and used)",
		5521: "Car dealers (used)", 5532: "Tyre stores", 5533: "Auto parts", 5541: "Service stations", 5542: "Automated fuel dispensers",
		5551: "Boat dealers", 5571: "Motorcycle dealers", 5611: "Men's clothing", 5621: "Women's ready-to-wear",
		5631: "Women's accessories", 5641: "Children's wear", 5651: "Family clothing", 5655: "Sports apparel",
		5661: "Shoe stores", 5691: "Clothing stores", 5699: "Apparel and accessories", 5712: "Furniture and home furnishings",
		5722: "Household appliances", 5732: "Electronics stores", 5733: "Music stores", 5734: "Computer software stores",
		5735: "Record stores", 5811: "Caterers", 5812: "Restaurants", 5813: "Bars and nightclubs",
		5814: "Fast food", 5815: "Digital media (books, movies, music)", 5816: "Digital games", 5817: "Digital applications",
		5818: "Digital goods", 5912: "Pharmacies", 5921: "Liquor stores", 5931: "Second-hand stores",
		5932: "Antique shops", 5941: "Sporting goods", 5942: "Book stores", 5943: "Stationery stores",
		5944: "Jewellery and watches", 5945: "Toys and games", 5946: "Camera and photo supplies", 5947: "Gifts and souvenirs",
		5948: "Luggage and leather goods", 5949: "Fabric and sewing", 5992: "Florists", 5993: "Tobacco shops",
		5994: "Newsagents", 5995: "Pet shops", 5999: "Miscellaneous retail", 6010: "Cash at a bank counter",
		6011: "Cash withdrawals (ATM)", 6012: "Financial institutions", 6051: "Quasi-cash and crypto", 6211: "Securities brokers",
		6300: "Insurance", 6513: "Real estate and rent", 6540: "Stored-value card loads", 7011: "Hotels and lodging",
		7012: "Timeshares", 7032: "Camps", 7033: "Campgrounds and trailer parks", 7210: "Laundry and cleaning",
		7216: "Dry cleaners", 7221: "Photo studios", 7230: "Hair and beauty salons", 7251: "Shoe repair",
		7261: "Funeral services", 7273: "Dating services", 7276: "Tax preparation", 7277: "Counselling services",
		7295: "Childcare", 7297: "Massage parlours", 7298: "Health and beauty spas", 7299: "Personal services",
		7311: "Advertising", 7333: "Graphic design", 7338: "Copy services", 7349: "Cleaning and maintenance",
		7372: "Programming and IT services", 7392: "Consulting", 7399: "Business services", 7512: "Car rental",
		7513: "Truck and trailer rental", 7523: "Parking", 7531: "Body shops", 7538: "Car servicing", 7542: "Car washes",
		7549: "Towing", 7622: "Electronics repair", 7699: "Repair shops", 7829: "Film production",
		7832: "Cinemas", 7841: "Video rental", 7911: "Dance halls and schools", 7922: "Theatres and tickets",
		7929: "Bands and entertainers", 7932: "Billiards and pool", 7933: "Bowling", 7941: "Sports clubs and stadiums",
		7991: "Tourist attractions", 7992: "Golf courses", 7993: "Video game arcades", 7994: "Video game arcades",
		7995: "Gambling and betting", 7996: "Amusement parks", 7997: "Clubs and memberships", 7998: "Aquariums and zoos",
		7999: "Recreation services", 8011: "Doctors", 8021: "Dentists", 8031: "Osteopaths", 8041: "Chiropractors",
		8042: "Optometrists", 8043: "Opticians", 8049: "Podiatrists", 8050: "Nursing and care homes",
		8062: "Hospitals", 8071: "Medical laboratories", 8099: "Health services", 8111: "Legal services",
		8211: "Schools", 8220: "Colleges and universities", 8241: "Correspondence schools", 8244: "Business schools",
		8249: "Vocational schools", 8299: "Education services", 8351: "Childcare services", 8398: "Charities",
		8641: "Civic and social associations", 8651: "Political organisations", 8661: "Religious organisations",
		8675: "Automobile associations", 8699: "Membership organisations", 8734: "Testing laboratories",
		8911: "Architects and engineers", 8931: "Accountants", 8999: "Professional services",
		9211: "Court costs", 9222: "Fines", 9223: "Bail and bond payments", 9311: "Tax payments",
		9399: "Government services", 9402: "Postal services", 9405: "Government purchases",
	}
}}

// MCCName is the name of a merchant category code ("5411" → "Grocery
// stores, supermarkets"); airline, car-rental and hotel chains' own codes
// name their group. ok is false for a code the table does not know.
func MCCName(code string) (string, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(code))
	if err != nil || n < 0 || n > 9999 {
		return "", false
	}
	if name, ok := mccNames.Get()[n]; ok {
		return name, true
	}
	switch {
	case n >= 3000 && n <= 3350:
		return "Airlines and air carriers", true
	case n >= 3351 && n <= 3500:
		return "Car rental", true
	case n >= 3501 && n <= 3999:
		return "Hotels and lodging", true
	}
	return "", false
}

// CategoryOf names what a transaction was spent on: the MCC's name, else
// the gateway's category word, else the code itself, else "Uncategorised".
func CategoryOf(mcc, category string) string {
	if name, ok := MCCName(mcc); ok {
		return name
	}
	if category = strings.TrimSpace(category); category != "" {
		return strings.ToUpper(category[:1]) + strings.ToLower(category[1:])
	}
	if mcc = strings.TrimSpace(mcc); mcc != "" {
		return "MCC " + mcc
	}
	return "Uncategorised"
}
