import {
  ApartmentOutlined,
  AuditOutlined,
  BankOutlined,
  FlagOutlined,
  HomeOutlined,
  LikeOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  TagsOutlined,
  TrophyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icon names of the shared route list to icons. */
export const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  setting: <SettingOutlined />,
  user: <UserOutlined />,
  safety: <SafetyOutlined />,
  apartment: <ApartmentOutlined />,
  solution: <SolutionOutlined />,
  bank: <BankOutlined />,
  trophy: <TrophyOutlined />,
  tags: <TagsOutlined />,
  flag: <FlagOutlined />,
  like: <LikeOutlined />,
  profile: <ProfileOutlined />,
  audit: <AuditOutlined />,
};
