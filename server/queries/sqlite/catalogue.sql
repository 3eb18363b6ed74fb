-- The SQL of server/src/modules/catalogue/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- catalogue.competitionsUsing(column, id)
select
  count(*) as "n"
from
  "competitions"
where
  "type_id" = ?;
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
  "id" = ?;

-- catalogue.deleteType(id)
delete from "competition_types"
where
  "id" = ?;

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
      and "competitions"."audit_status" = ?
  ) as "competition_num"
from
  "brands"
where
  "brands"."id" = ?;

-- catalogue.findNav(id)
select
  *
from
  "brand_navs"
where
  "id" = ?;

-- catalogue.findNavByBrand(brandId)
select
  *
from
  "brand_navs"
where
  "brand_id" = ?;

-- catalogue.findType(id)
select
  *
from
  "competition_types"
where
  "id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- catalogue.insertType(v)
insert into
  "competition_types" ("name", "sort", "created_at")
values
  (?, ?, ?)
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
    lower(brands.name) like ? escape '\'
    or lower(brands.short_name) like ? escape '\'
  )
  and "brands"."recommend" = ?;
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
  ?
offset
  ?;

-- catalogue.updateBrand(id, v)
update "brands"
set
  "recommend" = ?,
  "id" = ?,
  "name" = ?,
  "short_name" = ?,
  "logo" = ?,
  "sort" = ?,
  "description" = ?,
  "created_at" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- catalogue.updateNav(id, v)
update "brand_navs"
set
  "brand_id" = ?,
  "id" = ?,
  "updated_at" = ?,
  "nav_list" = ?,
  "sublinks_list" = ?,
  "frendlinks_list" = ?,
  "top_logo_path" = ?,
  "bottom_logo_path" = ?,
  "rcode_path" = ?,
  "copyright" = ?
where
  "id" = ?;

-- catalogue.updateType(id, v)
update "competition_types"
set
  "name" = ?,
  "sort" = ?
where
  "id" = ?;
