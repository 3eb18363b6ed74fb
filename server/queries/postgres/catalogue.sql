-- The SQL of server/src/modules/catalogue/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- catalogue.competitionsUsing(column, id)
select
  count(*) as "n"
from
  "competitions"
where
  "type_id" = $1;
-- stops here: no row

-- catalogue.countTypes()
select
  count(*) as "n"
from
  "competition_types";
-- stops here: no row

-- catalogue.deleteBrand(id)
delete from "brands"
where
  "id" = $1;

-- catalogue.deleteType(id)
delete from "competition_types"
where
  "id" = $1;

-- catalogue.findBrand(id)
select
  "brands"."id",
  "brands"."name",
  "brands"."short_name",
  "brands"."logo",
  "brands"."sort",
  "brands"."recommend",
  "brands"."description",
  (
    select
      count(*) as "n"
    from
      "competitions"
    where
      "competitions"."brand_id" = "brands"."id"
      and "competitions"."audit_status" = $1
  ) as "competition_num"
from
  "brands"
where
  "brands"."id" = $2;

-- catalogue.findNav(id)
select
  *
from
  "brand_navs"
where
  "id" = $1;

-- catalogue.findNavByBrand(brandId)
select
  *
from
  "brand_navs"
where
  "brand_id" = $1;

-- catalogue.findType(id)
select
  *
from
  "competition_types"
where
  "id" = $1;

-- catalogue.insertBrand(v)
insert into
  "brands" (
    "recommend",
    "name",
    "short_name",
    "sort",
    "created_at",
    "updated_at",
    "id",
    "logo",
    "description"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id";
-- stops here: no row

-- catalogue.insertNav(v)
insert into
  "brand_navs" (
    "brand_id",
    "updated_at",
    "nav_list",
    "sublinks_list",
    "frendlinks_list",
    "id",
    "top_logo_path",
    "bottom_logo_path",
    "rcode_path",
    "copyright"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
returning
  "id";
-- stops here: no row

-- catalogue.insertType(v)
insert into
  "competition_types" ("name", "sort", "created_at")
values
  ($1, $2, $3)
returning
  "id";
-- stops here: no row

-- catalogue.listBrands(q)
select
  count(*) as "n"
from
  "brands"
where
  (
    lower(brands.name) like $1 escape '\'
    or lower(brands.short_name) like $2 escape '\'
  )
  and "brands"."recommend" = $3;
-- stops here: no row

-- catalogue.listTypes(page)
select
  "id",
  "name",
  "sort"
from
  "competition_types"
order by
  "sort",
  "id"
limit
  $1
offset
  $2;

-- catalogue.updateBrand(id, v)
update "brands"
set
  "recommend" = $1,
  "id" = $2,
  "name" = $3,
  "short_name" = $4,
  "logo" = $5,
  "sort" = $6,
  "description" = $7,
  "created_at" = $8,
  "updated_at" = $9
where
  "id" = $10;

-- catalogue.updateNav(id, v)
update "brand_navs"
set
  "brand_id" = $1,
  "id" = $2,
  "updated_at" = $3,
  "nav_list" = $4,
  "sublinks_list" = $5,
  "frendlinks_list" = $6,
  "top_logo_path" = $7,
  "bottom_logo_path" = $8,
  "rcode_path" = $9,
  "copyright" = $10
where
  "id" = $11;

-- catalogue.updateType(id, v)
update "competition_types"
set
  "name" = $1,
  "sort" = $2
where
  "id" = $3;
