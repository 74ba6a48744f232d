/**
 * The niche vocabulary: name | synonyms | business-listing categories | businesses per 100,000
 * inhabitants (how common the niche is; rare niches find a handful even in big cities).
 */
export const NICHE_TABLE = `
dentist|dentists,dental clinic,dental office,dentistry,family dentist|Dentist;Cosmetic dentist;Dental clinic|45
orthodontist|orthodontics,braces|Orthodontist;Dentist|6
oral surgeon|oral surgery,maxillofacial surgeon|Oral surgeon;Dental clinic|2
chiropractor|chiropractic,chiropractors|Chiropractor;Health consultant|12
physiotherapist|physical therapist,physio,physical therapy|Physical therapist;Physical therapy clinic|20
massage therapist|massage,massage spa,massage clinic|Massage therapist;Massage spa|25
acupuncturist|acupuncture|Acupuncturist;Alternative medicine practitioner|4
optometrist|optician,eye doctor,eye care|Optometrist;Optician;Eye care center|10
dermatologist|skin doctor,dermatology|Dermatologist;Skin care clinic|4
pediatrician|paediatrician,children's doctor|Pediatrician;Doctor|6
family doctor|general practitioner,gp,primary care physician|Family practice physician;Doctor;Medical clinic|30
urgent care|walk-in clinic,urgent care center|Urgent care center;Medical clinic|4
veterinarian|vet,veterinary clinic,animal hospital|Veterinarian;Animal hospital|14
pet groomer|dog groomer,pet grooming,dog grooming|Pet groomer;Pet store|10
dog trainer|dog training,puppy training|Dog trainer;Pet trainer|4
pet boarding|dog boarding,kennel,pet sitter|Pet boarding service;Kennel|4
pharmacy|pharmacies,drugstore,chemist|Pharmacy;Drug store|20
hearing aid store|audiologist,hearing clinic|Hearing aid store;Audiologist|3
psychologist|therapist,counselor,psychotherapist,counselling|Psychologist;Psychotherapist;Counselor|15
nutritionist|dietitian,dietician|Nutritionist;Dietitian|5
med spa|medical spa,medspa,aesthetic clinic|Medical spa;Skin care clinic|5
plastic surgeon|cosmetic surgeon,plastic surgery|Plastic surgeon;Cosmetic surgeon|2
hair salon|hairdresser,hair stylist,beauty salon,salon|Hair salon;Beauty salon|60
barber|barbershop,barber shop,barbers|Barber shop|30
nail salon|nail bar,manicure,nails|Nail salon;Beauty salon|25
spa|day spa,wellness center|Day spa;Spa|8
tattoo shop|tattoo studio,tattoo parlor,tattoo artist|Tattoo shop;Tattoo artist|8
piercing studio|body piercing|Body piercing shop;Tattoo shop|2
tanning salon|tanning studio,spray tan|Tanning salon|4
eyelash extension|lash studio,lash extensions|Eyelash salon;Beauty salon|6
waxing salon|waxing studio,hair removal|Waxing hair removal service;Beauty salon|4
makeup artist|make-up artist,mua|Make-up artist;Beauty salon|5
gym|fitness center,fitness studio,health club,gyms|Gym;Fitness center|15
yoga studio|yoga,yoga classes|Yoga studio;Fitness center|8
pilates studio|pilates|Pilates studio;Fitness center|5
personal trainer|personal training,fitness trainer|Personal trainer;Fitness center|10
martial arts school|karate,taekwondo,jiu jitsu,bjj,dojo|Martial arts school;Karate school|5
dance school|dance studio,dance classes|Dance school;Dance studio|5
swimming school|swim school,swimming lessons|Swimming school;Swimming instructor|2
climbing gym|bouldering gym,climbing wall|Rock climbing gym|0.6
plumber|plumbers,plumbing,plumbing contractor|Plumber;Plumbing supply store|30
electrician|electricians,electrical contractor|Electrician;Electrical installation service|30
hvac contractor|hvac,air conditioning contractor,heating contractor,ac repair|HVAC contractor;Air conditioning contractor;Heating contractor|18
roofing contractor|roofer,roofers,roofing|Roofing contractor;Roofing supply store|14
general contractor|builder,construction company,home builder|General contractor;Construction company|25
painter|house painter,painting contractor,painters|Painter;Painting contractor|15
landscaper|landscaping,landscape designer,lawn care,gardener|Landscaper;Lawn care service;Landscape designer|25
tree service|arborist,tree surgeon,tree removal|Tree service;Arborist|6
pest control|exterminator,pest control service|Pest control service|8
cleaning service|house cleaning,maid service,cleaners,janitorial service|House cleaning service;Janitorial service;Cleaning service|30
carpet cleaner|carpet cleaning,upholstery cleaner|Carpet cleaning service|6
window cleaner|window cleaning|Window cleaning service|5
pressure washing|power washing|Pressure washing service|4
handyman|handyman service,home repair|Handyman;Home improvement service|15
locksmith|locksmiths,lock service|Locksmith|8
garage door company|garage door repair,garage door installer|Garage door supplier;Garage door repair service|4
flooring contractor|flooring,floor installer,hardwood flooring|Flooring contractor;Flooring store|8
tile contractor|tiler,tiling|Tile contractor|4
carpenter|carpentry,joiner|Carpenter;Cabinet maker|8
cabinet maker|kitchen cabinets,custom cabinets|Cabinet maker;Kitchen remodeler|3
kitchen remodeler|kitchen remodeling,kitchen renovation|Kitchen remodeler;Remodeler|5
bathroom remodeler|bathroom remodeling,bathroom renovation|Bathroom remodeler;Remodeler|4
interior designer|interior design,interior decorator|Interior designer|8
architect|architects,architecture firm|Architect;Architecture firm|10
solar installer|solar panels,solar company,solar energy|Solar energy company;Solar panel installer|3
pool service|pool cleaning,pool contractor,pool builder|Swimming pool contractor;Pool cleaning service|4
fence contractor|fencing,fence installer|Fence contractor|4
concrete contractor|concrete,paving contractor|Concrete contractor;Paving contractor|6
masonry contractor|mason,bricklayer,stonemason|Masonry contractor|3
gutter service|gutter cleaning,gutters|Gutter cleaning service;Gutter service|3
moving company|movers,removals,moving service|Moving company;Mover|10
storage facility|self storage,storage units|Self-storage facility;Storage facility|6
junk removal|rubbish removal,junk hauling|Junk removal service;Garbage collection service|4
septic service|septic tank,septic pumping|Septic system service|1
well drilling|water well drilling|Well drilling contractor|0.5
chimney sweep|chimney cleaning|Chimney sweep;Chimney services|1
appliance repair|appliance repair service|Appliance repair service|6
water damage restoration|water damage,mold remediation,restoration|Water damage restoration service;Fire damage restoration service|3
home inspector|home inspection,building inspector|Home inspector|4
real estate agent|realtor,real estate agency,estate agent,realtors|Real estate agent;Real estate agency|60
property management|property manager,property management company|Property management company|10
mortgage broker|mortgage lender,mortgage|Mortgage broker;Mortgage lender|10
insurance agency|insurance agent,insurance broker|Insurance agency;Insurance broker|25
accountant|accounting firm,cpa,bookkeeper,tax accountant|Accountant;Certified public accountant;Tax preparation service|30
tax preparer|tax preparation,tax service|Tax preparation service;Tax consultant|10
financial advisor|financial planner,wealth manager|Financial planner;Financial consultant|12
lawyer|attorney,law firm,solicitor,lawyers|Law firm;Lawyer;Attorney|40
personal injury lawyer|personal injury attorney,accident lawyer|Personal injury attorney;Law firm|6
divorce lawyer|family lawyer,family law attorney|Divorce lawyer;Family law attorney|5
immigration lawyer|immigration attorney|Immigration attorney;Law firm|3
criminal lawyer|criminal defense attorney,defense lawyer|Criminal justice attorney;Law firm|4
notary|notary public|Notary public|6
marketing agency|digital marketing agency,advertising agency,seo agency|Marketing agency;Advertising agency;Internet marketing service|12
web designer|web design,website designer,web developer|Website designer;Web hosting company|10
it services|computer repair,it support,managed it|Computer support and services;Computer repair service|12
photographer|photography studio,wedding photographer,photographers|Photographer;Wedding photographer;Photography studio|20
videographer|video production,wedding videographer|Videographer;Video production service|5
printing service|print shop,printer,printing company|Print shop;Commercial printer|6
sign shop|signs,sign maker|Sign shop|3
staffing agency|recruitment agency,employment agency,recruiter|Employment agency;Recruiter|6
coworking space|coworking,shared office|Coworking space;Office space rental agency|2
translation service|translator,translation agency|Translator;Translation service|2
restaurant|restaurants,eatery,diner,bistro|Restaurant;Family restaurant|200
pizza restaurant|pizzeria,pizza,pizza place|Pizza restaurant;Pizza delivery|40
italian restaurant|trattoria,italian food|Italian restaurant;Restaurant|20
mexican restaurant|taqueria,mexican food|Mexican restaurant;Restaurant|25
chinese restaurant|chinese food,chinese takeaway|Chinese restaurant;Restaurant|20
japanese restaurant|sushi,sushi restaurant,ramen|Japanese restaurant;Sushi restaurant|12
indian restaurant|indian food,curry house|Indian restaurant;Restaurant|10
thai restaurant|thai food|Thai restaurant;Restaurant|8
vegan restaurant|vegetarian restaurant,plant based restaurant|Vegan restaurant;Vegetarian restaurant|3
steakhouse|steak house,steak restaurant|Steak house;Restaurant|4
seafood restaurant|fish restaurant,oyster bar|Seafood restaurant;Restaurant|6
burger restaurant|burger joint,burgers|Hamburger restaurant;Fast food restaurant|12
cafe|coffee shop,coffee house,café,coffee|Coffee shop;Cafe|50
bakery|bakeries,patisserie,bake shop|Bakery;Pastry shop|25
bar|pub,bars,tavern,cocktail bar|Bar;Pub;Cocktail bar|40
brewery|craft brewery,brewpub,microbrewery|Brewery;Brewpub|3
winery|vineyard,wine estate|Winery;Vineyard|1
food truck|food trucks,street food|Food truck|5
catering|caterer,catering service|Caterer;Catering food and drink supplier|10
ice cream shop|gelato,ice cream parlor,gelateria|Ice cream shop|8
juice bar|smoothie bar|Juice shop;Smoothie shop|4
butcher|butcher shop,meat market|Butcher shop;Meat products store|6
grocery store|supermarket,grocer,food market|Grocery store;Supermarket|30
liquor store|wine shop,off licence,bottle shop|Liquor store;Wine store|12
florist|flower shop,florists|Florist;Flower delivery|12
gift shop|gift store,souvenir shop|Gift shop|10
jewelry store|jeweler,jeweller,jewellery store|Jewelry store;Jeweler|10
clothing store|boutique,fashion store,apparel store|Clothing store;Boutique|40
shoe store|shoe shop,footwear store|Shoe store|10
bridal shop|bridal store,wedding dress shop|Bridal shop|2
furniture store|furniture shop,home furnishings|Furniture store;Home goods store|10
mattress store|mattress shop,bed store|Mattress store|4
hardware store|diy store,home improvement store|Hardware store;Home improvement store|8
bike shop|bicycle shop,bicycle repair|Bicycle shop;Bicycle repair shop|4
bookstore|book shop,bookshop|Book store|5
toy store|toy shop|Toy store|3
pet store|pet shop,pet supplies|Pet store;Pet supply store|8
music store|guitar shop,instrument store|Musical instrument store|2
vape shop|vape store,e-cigarette shop|Vaporizer store;Tobacco shop|6
cannabis dispensary|dispensary,marijuana dispensary|Cannabis store;Dispensary|3
thrift store|second hand shop,consignment store,charity shop|Thrift store;Used clothing store|6
antique store|antiques,antique shop|Antique store|3
art gallery|gallery,art dealer|Art gallery|4
frame shop|picture framing,framer|Picture frame shop|2
pawn shop|pawnbroker|Pawn shop|3
phone repair|cell phone repair,mobile phone repair,iphone repair|Cell phone repair shop;Mobile phone store|8
car dealer|car dealership,auto dealer,used car dealer|Car dealer;Used car dealer|15
auto repair|mechanic,car repair,auto mechanic,garage|Auto repair shop;Mechanic|40
auto body shop|collision repair,body shop,panel beater|Auto body shop|10
car wash|auto detailing,car detailing|Car wash;Car detailing service|10
tire shop|tyre shop,tire dealer|Tire shop|8
towing service|tow truck,towing,roadside assistance|Towing service|5
driving school|driving instructor,driving lessons|Driving school|5
motorcycle dealer|motorcycle shop,motorbike dealer|Motorcycle dealer;Motorcycle repair shop|2
rv dealer|camper dealer,motorhome dealer|RV dealer|0.5
boat dealer|boat shop,marine dealer|Boat dealer|0.6
taxi service|taxi,cab company,limo service,chauffeur|Taxi service;Limousine service|8
travel agency|travel agent,tour operator|Travel agency;Tour operator|8
hotel|hotels,inn,lodging,motel|Hotel;Motel;Inn|20
bed and breakfast|b&b,guest house,guesthouse|Bed & breakfast;Guest house|5
event venue|wedding venue,banquet hall,event space|Event venue;Wedding venue;Banquet hall|6
wedding planner|event planner,party planner|Wedding planner;Event planner|5
dj|disc jockey,wedding dj|DJ service|4
photo booth rental|photo booth|Photo booth rental|1
party rental|party supplies rental,bounce house rental|Party equipment rental service|3
funeral home|funeral director,mortuary,funeral parlor|Funeral home;Funeral director|4
cemetery|graveyard,memorial park|Cemetery|1
church|churches,chapel|Church;Place of worship|30
daycare|child care,childcare,nursery,preschool,kindergarten|Day care center;Preschool;Child care agency|20
tutoring|tutor,tutoring center,learning center|Tutoring service;Educational consultant|10
music school|music lessons,piano teacher,music teacher|Music school;Music instructor|5
language school|language classes,english school|Language school|4
art school|art classes,painting classes|Art school|2
private school|independent school,academy|Private school;School|3
senior living|assisted living,retirement home,nursing home|Assisted living facility;Retirement home;Nursing home|6
home care|home health care,caregiver,in-home care|Home health care service;Senior citizen center|8
laundromat|laundry,dry cleaner,dry cleaning|Laundromat;Dry cleaner;Laundry service|15
tailor|alterations,seamstress|Tailor;Clothing alteration service|6
shoe repair|cobbler,shoe repairer|Shoe repair shop|2
watch repair|watchmaker|Watch repair service|1
security company|security guard service,alarm company|Security service;Security system installer|4
courier|courier service,delivery service|Courier service;Delivery service|5
self defense class|self-defense|Self defense school|0.8
escape room|escape game|Escape room center|1
bowling alley|bowling|Bowling alley|1
golf course|golf club,country club|Golf course;Golf club|2
horse riding|equestrian center,riding school,stables|Horse riding school;Equestrian facility|1
taxidermist|taxidermy|Taxidermist|0.2
violin maker|luthier,string instrument maker|Violin shop;Musical instrument manufacturer|0.15
bookbinder|bookbinding|Bookbinder|0.1
blacksmith|forge,metalsmith|Blacksmith|0.15
clock repair|clockmaker|Clock repair service|0.2
beekeeper|apiary,honey farm|Beekeeper;Honey farm|0.3
saddlery|saddle maker,saddler|Saddlery|0.1
piano tuner|piano tuning|Piano tuning service|0.4
glass blower|glassblowing studio|Glass blower;Glass studio|0.15
calligrapher|calligraphy|Calligrapher|0.1
sailmaker|sail loft|Sailmaker|0.05
`;
